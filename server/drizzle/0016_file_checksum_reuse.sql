-- issue 22, item 6: a client asks for the caller's ready file with some bytes (GET /api/files?checksum=)
-- before uploading them again; this answers it from the owner's files with that checksum only.
CREATE INDEX IF NOT EXISTS "file_user_checksum_idx" ON "file" ("user_id", "checksum") WHERE "status" = 'UPLOADED';
