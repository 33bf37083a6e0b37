CREATE TABLE "daily_summaries" (
	"id" serial PRIMARY KEY NOT NULL,
	"for_date" date NOT NULL,
	"text" text NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "daily_summaries_for_date_key" ON "daily_summaries" USING btree ("for_date");--> statement-breakpoint
-- The morning briefings written before this migration carried internal figures on the public site: they
-- become the staff's daily summaries of their day, and leave the public articles.
INSERT INTO "daily_summaries" ("for_date", "text", "generated_at")
SELECT "for_date", concat_ws(E'\n\n', "title", "body"), "created_at" FROM "articles"
WHERE "for_date" IS NOT NULL AND "generator" IN ('rules', 'llm')
ON CONFLICT ("for_date") DO NOTHING;
--> statement-breakpoint
DELETE FROM "articles" WHERE "for_date" IS NOT NULL AND "generator" IN ('rules', 'llm');
