-- Custom SQL migration file, put your code below! --
-- Server instances keep the public pricing row and the latest articles in memory; a change to either
-- table tells every instance listening on mchanga_cache (the payload names the table).
CREATE OR REPLACE FUNCTION notify_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mchanga_cache', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER pricing_settings_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pricing_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER articles_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON articles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_change();
