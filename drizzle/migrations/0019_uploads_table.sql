CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_size_check" CHECK ("uploads"."size" >= 0 and "uploads"."size" = octet_length("uploads"."data")),
	CONSTRAINT "uploads_sha256_check" CHECK ("uploads"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
-- JPEG does not compress: keep the bytes out of line and uncompressed, so substring() reads one slice.
ALTER TABLE "uploads" ALTER COLUMN "data" SET STORAGE EXTERNAL;
