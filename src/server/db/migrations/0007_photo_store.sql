CREATE TABLE "image_variants" (
	"key" text NOT NULL,
	"width" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_variants_key_width_pk" PRIMARY KEY("key","width")
);
