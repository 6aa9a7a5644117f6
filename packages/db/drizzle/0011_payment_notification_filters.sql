DROP INDEX "payment_notifications_received_idx";--> statement-breakpoint
CREATE INDEX "payment_notifications_order_lower_idx" ON "payment_notifications" USING btree (lower("order_id"));--> statement-breakpoint
CREATE INDEX "payment_notifications_outcome_received_idx" ON "payment_notifications" USING btree ("outcome","received_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payment_notifications_email_trgm_idx" ON "payment_notifications" USING gin (lower(coalesce("payload"->>'email', '') || ' ' || coalesce("payload"->>'buyer_email', '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payment_notifications_custom_uid_idx" ON "payment_notifications" USING btree (substring("custom" from '(?:^|[|]) *uid-([A-Za-z0-9-]+)'));--> statement-breakpoint
CREATE INDEX "payment_notifications_received_idx" ON "payment_notifications" USING btree ("received_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);