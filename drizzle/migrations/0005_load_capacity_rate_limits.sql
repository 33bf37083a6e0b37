CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "scheduled_before_payment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");--> statement-breakpoint
CREATE INDEX "alert_deliveries_recipient_idx" ON "alert_deliveries" USING btree ("recipient_id","id");