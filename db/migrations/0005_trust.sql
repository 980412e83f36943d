CREATE TABLE `operator_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text(30) NOT NULL,
	`reference` text(100) NOT NULL,
	`subject` text(200),
	`cover_amount` integer,
	`expires_at` text(10) NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `operator_documents_expiry_idx` ON `operator_documents` (`expires_at`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`paid_amount` integer NOT NULL,
	`refund_amount` integer NOT NULL,
	`refund_subtotal` integer NOT NULL,
	`refund_vat` integer NOT NULL,
	`charge_amount` integer DEFAULT 0 NOT NULL,
	`basis` text(30) NOT NULL,
	`status` text(20) DEFAULT 'requested' NOT NULL,
	`payfast_refund_reference` text(100),
	`credit_note_number` integer,
	`requested_at` integer NOT NULL,
	`refunded_at` integer,
	`confirmed_by` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`confirmed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_project_unique` ON `refunds` (`project_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_credit_note_unique` ON `refunds` (`credit_note_number`);--> statement-breakpoint
CREATE INDEX `refunds_status_idx` ON `refunds` (`status`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `billing_name` text(255);--> statement-breakpoint
ALTER TABLE `invoices` ADD `billing_email` text(255);--> statement-breakpoint
ALTER TABLE `invoices` ADD `billing_address` text(500);--> statement-breakpoint
ALTER TABLE `invoices` ADD `billing_vat_number` text(20);--> statement-breakpoint
ALTER TABLE `invoices` ADD `supplier_snapshot` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `cancelled_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `rpl_number` text(50);--> statement-breakpoint
ALTER TABLE `users` ADD `rpl_expires_at` text(10);--> statement-breakpoint
ALTER TABLE `users` ADD `medical_expires_at` text(10);--> statement-breakpoint
ALTER TABLE `users` ADD `vat_number` text(20);--> statement-breakpoint
ALTER TABLE `users` ADD `billing_address` text(500);--> statement-breakpoint
ALTER TABLE `users` ADD `marketing_opt_in` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `marketing_opt_in_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `anonymised_at` integer;