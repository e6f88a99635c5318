-- Run once by the postgres image on first start (empty data volume): one database per service.
CREATE DATABASE quire_orgs;
CREATE DATABASE quire_content;
CREATE DATABASE quire_review;
CREATE DATABASE quire_sites;
CREATE DATABASE quire_integrations;
CREATE DATABASE quire_git_sync;
-- insights also reads DATABASE_URL (its analytics go to ClickHouse when CLICKHOUSE_URL is set).
CREATE DATABASE quire_insights;
