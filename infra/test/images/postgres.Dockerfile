# PostgreSQL 15 from Debian's packages, standing in for the official `postgres:15` image where no
# registry answers: the same settings (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB), data
# directory and first-start scripts (/docker-entrypoint-initdb.d/*.sql).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql /docker-entrypoint-initdb.d \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
ENTRYPOINT ["postgres-entrypoint"]
