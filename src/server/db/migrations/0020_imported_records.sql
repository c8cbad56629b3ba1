CREATE TABLE "imported_records" (
	"source" text NOT NULL,
	"collection" text NOT NULL,
	"original_id" text NOT NULL,
	"local_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_records_source_collection_original_id_pk" PRIMARY KEY("source","collection","original_id")
);
