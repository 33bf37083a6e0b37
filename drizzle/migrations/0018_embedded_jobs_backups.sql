CREATE TABLE "backup_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"file" text,
	"size_bytes" bigint,
	"error" text,
	CONSTRAINT "backup_runs_status_check" CHECK ("backup_runs"."status" in ('running','ok','failed'))
);
--> statement-breakpoint
CREATE TABLE "embedded_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"waits" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "embedded_jobs_state_check" CHECK ("embedded_jobs"."state" in ('queued','completed','failed'))
);
--> statement-breakpoint
CREATE INDEX "backup_runs_started_idx" ON "backup_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "embedded_jobs_queued_idx" ON "embedded_jobs" USING btree ("run_at") WHERE "embedded_jobs"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "embedded_jobs_finished_idx" ON "embedded_jobs" USING btree ("finished_at") WHERE "embedded_jobs"."finished_at" is not null;