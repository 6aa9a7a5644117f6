-- pg_trgm powers the admin's "contains" filters on names and e-mail addresses (GIN trigram indexes).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
