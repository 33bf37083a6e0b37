ALTER TABLE "embedded_jobs" ALTER COLUMN "payload" SET DATA TYPE text USING "payload"::text;
