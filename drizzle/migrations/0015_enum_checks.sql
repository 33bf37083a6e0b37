ALTER TABLE "ai_insights" ADD CONSTRAINT "ai_insights_generator_check" CHECK ("ai_insights"."generator" in ('llm','rules'));--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_status_check" CHECK ("alert_deliveries"."status" in ('PENDING','SENT','RECORDED','FAILED'));--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_generator_check" CHECK ("articles"."generator" in ('llm','rules','manual'));--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_source_check" CHECK ("costs"."source" in ('MANUAL','FUEL','STOCK'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_distance_source_check" CHECK ("orders"."distance_source" in ('manual','geocoded','heuristic','default'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('SUBMITTED','CONFIRMED','REJECTED'));--> statement-breakpoint
ALTER TABLE "yard_stock_balance" ADD CONSTRAINT "yard_stock_balance_category_check" CHECK ("yard_stock_balance"."category" in ('coarse','smooth'));