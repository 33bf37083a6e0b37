CREATE TABLE "conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"profile_name" text,
	"language" text DEFAULT 'en' NOT NULL,
	"state" text DEFAULT 'idle' NOT NULL,
	"draft" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"order_id" integer,
	"customer_id" integer,
	"last_inbound_at" timestamp with time zone,
	"human_takeover_at" timestamp with time zone,
	"human_takeover_by_id" integer,
	"sms_opt_out_at" timestamp with time zone,
	"whatsapp_opt_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_language_check" CHECK ("conversations"."language" in ('en','sw')),
	CONSTRAINT "conversations_state_check" CHECK ("conversations"."state" in ('idle','ask_site','ask_sand','ask_trucks','confirm','ordered'))
);
--> statement-breakpoint
CREATE TABLE "inbound_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"body" text NOT NULL,
	"source_ip" text,
	"received_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "inbound_callbacks_source_check" CHECK ("inbound_callbacks"."source" in ('WHATSAPP','SMS_DELIVERY','SMS_INBOUND'))
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"order_id" integer,
	"direction" text NOT NULL,
	"channel" text NOT NULL,
	"text" text NOT NULL,
	"payload" jsonb,
	"template" text,
	"status" text NOT NULL,
	"provider_id" text,
	"error_code" text,
	"error" text,
	"event_key" text,
	"by_user_id" integer,
	"sending_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_direction_check" CHECK ("messages"."direction" in ('IN','OUT')),
	CONSTRAINT "messages_channel_check" CHECK ("messages"."channel" in ('WHATSAPP','SMS')),
	CONSTRAINT "messages_status_check" CHECK ("messages"."status" in ('RECEIVED','PENDING','SENDING','SENT','DELIVERED','READ','FAILED','SKIPPED'))
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_human_takeover_by_id_users_id_fk" FOREIGN KEY ("human_takeover_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_phone_key" ON "conversations" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "conversations_order_idx" ON "conversations" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "inbound_callbacks_unprocessed_idx" ON "inbound_callbacks" USING btree ("id") WHERE "inbound_callbacks"."processed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_provider_key" ON "messages" USING btree ("channel","provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_event_key" ON "messages" USING btree ("event_key");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE INDEX "messages_order_idx" ON "messages" USING btree ("order_id","id");