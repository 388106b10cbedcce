-- Rotating an endpoint's signing secret (docs/webhooks.md): the previous secret, sealed like the
-- current one, signs deliveries beside it until it expires; the rotation's idempotency key lets a
-- retry answer the secret it made.
ALTER TABLE "webhook_endpoints"
    ADD COLUMN "previous_secret_ciphertext" BYTEA,
    ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "secret_rotation_key" TEXT;
