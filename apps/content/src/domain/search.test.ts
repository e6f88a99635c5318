import { describe, expect, it } from 'vitest';
import { encodeCursor } from '@quire/service-kit';
import { checkQuery, collapseSpaces, offsetPage, offsetPageOf, queryTerms, searchLanguage, searchText, snippet as cut, snippetTerms } from './search.ts';

const snippet = (body: string, terms: string[]) => cut(body, snippetTerms(terms));

describe('checkQuery', () => {
  it('requires a query of at most 512 characters', () => {
    expect(checkQuery('  install guide ')).toBe('install guide');
    expect(() => checkQuery(' ')).toThrow(/query: required/);
    expect(checkQuery('a'.repeat(512))).toHaveLength(512);
    expect(() => checkQuery('a'.repeat(513))).toThrow(/query: must be at most 512/);
  });
});

describe('offset paging', () => {
  it('gives out cursors that continue where the page ended, and refuses others', () => {
    const first = offsetPageOf([1, 2, 3], 0, 2);
    expect(first.items).toEqual([1, 2]);
    expect(offsetPage({ page: first.next, limit: 2 })).toEqual({ offset: 2, limit: 2 });
    expect(offsetPageOf([3], 2, 2)).toEqual({ items: [3] });
    expect(offsetPage(undefined)).toEqual({ offset: 0, limit: 50 });
    expect(() => offsetPage({ page: encodeCursor('abc'), limit: 1 })).toThrow(/page: not a cursor/);
    expect(() => offsetPage({ page: 'junk!', limit: 1 })).toThrow(/page: not a cursor/);
    expect(() => offsetPage({ page: '', limit: 1001 })).toThrow(/limit/);
  });
});

describe('snippet', () => {
  const body = `${'Intro words here. '.repeat(20)}Then you install the Kubernetes chart on the cluster. ${'Closing words. '.repeat(20)}`;

  it('keeps short bodies whole', () => {
    expect(snippet('Short  text\nhere.', ['text'])).toBe('Short text here.');
  });

  it('cuts around the first matching word, at word boundaries', () => {
    const s = snippet(body, queryTerms('installing -docker "kubernetes"'));
    expect(s.length).toBeLessThanOrEqual(202);
    expect(s).toMatch(/^….* install the Kubernetes chart .*…$/);
    // It starts on a whole word of the text.
    expect(body).toContain(` ${s.slice(1).split(' ')[0]} `);
  });

  it('starts at the beginning when nothing matches', () => {
    expect(snippet(body, ['zeppelin'])).toMatch(/^Intro words here\..*…$/);
  });

  it('finds inflected, unaccented and CJK words', () => {
    const pad = 'Lorem ipsum dolor sit amet. '.repeat(10);
    expect(snippet(`${pad}Настройка сервера занимает минуту. ${pad}`, ['сервер'])).toMatch(/^….* Настройка сервера .*…$/);
    expect(snippet(`${pad}Le café est ouvert. ${pad}`, ['cafe'])).toMatch(/^….* Le café est .*…$/);
    expect(snippet(`${pad}这是一个测试句子。${pad}`, ['测试'])).toMatch(/^….*这是一个测试句子.*…$/);
  });

  it('matches words by their start, in any case and with any accents, and gives the text back as written', () => {
    const pad = 'Lorem ipsum dolor sit amet. '.repeat(10);
    expect(snippet(`${pad}Οι ΔΙΑΚΟΜΙΣΤΈΣ είναι έτοιμοι. ${pad}`, ['διακομιστης'])).toMatch(/^….* Οι ΔΙΑΚΟΜΙΣΤΈΣ είναι .*…$/);
    expect(snippet(`${pad}Ein Café. ${pad}`, ['CAFE'])).toContain('Ein Café.');
    expect(snippet(`${pad}Настройка СЕРВЕРА и Сервера. ${pad}`, ['сервер'])).toMatch(/^….* Настройка СЕРВЕРА и Сервера\..*…$/);
    // İ is I and a dot above: the dot is a mark.
    expect(snippet(`${pad}Bienvenue à İstanbul. ${pad}`, ['istanbul'])).toMatch(/^….* à İstanbul\..*…$/);
    // Inside a word is no match: the snippet starts at the beginning.
    expect(snippet(`${pad}Decafeinated. ${pad}`, ['cafe'])).toMatch(/^Lorem ipsum/);
    expect(snippet(`${pad}2cafe. ${pad}`, ['cafe'])).toMatch(/^Lorem ipsum/);
    expect(snippet(`${pad}𝐀cafe. ${pad}`, ['cafe'])).toMatch(/^Lorem ipsum/);
    // After a character that is no letter, digit or mark, a word starts.
    expect(snippet(`${pad}(_cafe) ${pad}`, ['cafe'])).toMatch(/^….* \(_cafe\) .*…$/);
    // One sigma, whichever form lower case gives it.
    expect(snippet(`${pad}Η ΤΙΣΑΝΑ είναι. ${pad}`, ['τις'])).toMatch(/^….* Η ΤΙΣΑΝΑ είναι\..*…$/);
    // A CJK word as written: ガ is not カ.
    expect(snippet(`カスト。${pad}ガスト。${pad}`, ['ガスト'])).toMatch(/^….*ガスト。.*…$/);
  });

  it('makes every run of white space one space, as a replace of each run would', () => {
    const spaces = [' ', '  ', '\n', ' \n ', '\t\t', '\u00a0', ' \u2028', '\r\n', '   \t'];
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 12 }, (_, j) => (j % 2 ? spaces[(i * 7 + j * 3) % spaces.length] : 'w')).join('');
      expect(collapseSpaces(text)).toBe(text.replace(/\s+/g, ' '));
    }
  });

  it('reads the words of a query', () => {
    expect(queryTerms('Install OR "Helm chart" -docker k8s.io')).toEqual(['install', 'helm', 'chart', 'k8s', 'io']);
  });
});

describe('searchLanguage', () => {
  it.each([
    ['Настройка сервера: запустите nginx.', 'russian'],
    ['Οι διακομιστές του cluster', 'greek'],
    ['Le serveur est prêt pour les utilisateurs et les équipes.', 'french'],
    ['Der Server ist nicht mit dem Netz verbunden und wird neu gestartet.', 'german'],
    ['El servidor está listo para los usuarios y las cuentas.', 'spanish'],
    ['Install the chart on your cluster.', 'english'],
    // Nothing tells: English.
    ['Kubernetes', 'english'],
    ['', 'english'],
    ['这是一个测试句子', 'english'],
  ])('tells the language of %j by its script, or a Latin one by its function words: %s', (text, language) => {
    expect(searchLanguage(text)).toBe(language);
  });
});

describe('searchText', () => {
  it.each([
    ['这是一个测试句子', '这是 是一 一个 个测 测试 试句 句子'],
    ['Quire测试です', 'Quire 测试 试で です'],
    ['テストの文章', 'テス スト トの の文 文章'],
    ['한국어 문서', '한국 국어 문서'],
    ['字', '字'],
    // Punctuation beyond ASCII is a space; ASCII punctuation and accents stay.
    ['「测试」，句子。«сервер»—café', ' 测试 句子 сервер café'],
    ['v1.2.3 user@example.com "exact phrase" -not', 'v1.2.3 user@example.com "exact phrase" -not'],
  ])('cuts CJK runs of %j into overlapping pairs, apart from the words around them', (text, indexed) => {
    expect(searchText(text)).toBe(indexed);
  });

  it('makes a CJK word of a query a phrase, unless it is in one already', () => {
    expect(searchText('-服务器 nginx', { query: 'exact' })).toBe('-"服务 务器" nginx');
    expect(searchText('"安装 服务器"', { query: 'exact' })).toBe('"安装 服务 务器"');
    expect(searchText('测试', { query: 'exact' })).toBe('测试');
    expect(searchText('服务器测试', { query: 'exact' })).toBe('"服务 务器 器测 测试"');
  });

  it('makes a CJK word of a query its pairs all present for the index, a phrase still where excluded or quoted', () => {
    expect(searchText('服务器 nginx', { query: 'match' })).toBe('服务 务器 nginx');
    expect(searchText('テスト or サーバー', { query: 'match' })).toBe('テス スト or サー ーバ バー');
    expect(searchText('-服务器 测试', { query: 'match' })).toBe('-"服务 务器" 测试');
    expect(searchText('"安装 服务器"', { query: 'match' })).toBe('"安装 服务 务器"');
    expect(searchText('nginx', { query: 'match' })).toBe(searchText('nginx', { query: 'exact' }));
  });
});
