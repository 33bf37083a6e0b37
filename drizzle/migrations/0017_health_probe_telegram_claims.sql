CREATE TABLE "health_probe" (
	"id" integer PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "health_probe_singleton" CHECK ("health_probe"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_status_check";--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "sending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_status_check" CHECK ("alert_deliveries"."status" in ('PENDING','SENDING','SENT','RECORDED','FAILED'));