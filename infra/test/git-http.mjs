// Git's smart HTTP protocol for the repositories under /git, by `git http-backend` as CGI: what
// the compose proof's git-sync clones from (shallow clones need the smart protocol).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

createServer((req, res) => {
  const url = new URL(req.url, 'http://gitserver');
  const cgi = spawn('git', ['http-backend'], {
    env: {
      GIT_PROJECT_ROOT: '/git',
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method,
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      PATH: process.env.PATH,
    },
  });
  req.pipe(cgi.stdin);
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    cgi.stdout.off('data', onData);
    const headers = Object.fromEntries(head.subarray(0, end).toString().split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    res.writeHead(Number(headers.status?.split(' ')[0] ?? 200), Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'status')));
    res.write(head.subarray(end + 4));
    cgi.stdout.pipe(res);
  };
  cgi.stdout.on('data', onData);
}).listen(Number(process.env.PORT ?? 80));
