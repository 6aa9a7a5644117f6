DROP INDEX "package_orders_created_idx";--> statement-breakpoint
DROP INDEX "ticket_orders_created_idx";--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "package_orders_created_idx" ON "congress_package_orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ticket_orders_created_idx" ON "congress_ticket_orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);