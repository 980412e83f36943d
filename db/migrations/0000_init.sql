CREATE TABLE `airspace_zones` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`zone_name` text(255) NOT NULL,
	`zone_type` text(50) NOT NULL,
	`color` text(20) NOT NULL,
	`aviation_fee` integer DEFAULT 0 NOT NULL,
	`polygon` text NOT NULL,
	`source` text(20) DEFAULT 'kml' NOT NULL,
	`designator` text(50),
	`lower_ft` integer,
	`upper_ft` integer,
	`lower_is_surface` integer DEFAULT true NOT NULL,
	`requires_approval` integer DEFAULT false NOT NULL,
	`min_lng` real NOT NULL,
	`min_lat` real NOT NULL,
	`max_lng` real NOT NULL,
	`max_lat` real NOT NULL,
	`uploaded_at` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX `airspace_zones_active_idx` ON `airspace_zones` (`is_active`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer,
	`action` text(100) NOT NULL,
	`entity_type` text(50) NOT NULL,
	`entity_id` text(50),
	`before` text,
	`after` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(200) NOT NULL,
	`email` text(255) NOT NULL,
	`message` text NOT NULL,
	`ip_address` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `counters` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `flight_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`pilot_id` integer NOT NULL,
	`hours` real NOT NULL,
	`logged_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pilot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `flight_logs_pilot_idx` ON `flight_logs` (`pilot_id`,`logged_at`);--> statement-breakpoint
CREATE TABLE `fly_zones` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(200) NOT NULL,
	`kml_data` text NOT NULL,
	`price_multiplier` integer DEFAULT 100 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hubs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(200) NOT NULL,
	`address` text(500) NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`description` text,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hubs_active_idx` ON `hubs` (`is_active`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_number` text(40),
	`tax_invoice_number` integer,
	`project_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`project_name` text(255) NOT NULL,
	`description` text,
	`amount` integer NOT NULL,
	`subtotal_amount` integer DEFAULT 0 NOT NULL,
	`vat_amount` integer DEFAULT 0 NOT NULL,
	`payment_method` text(50) DEFAULT 'PayFast' NOT NULL,
	`payment_transaction_id` text(100),
	`status` text(20) DEFAULT 'pending' NOT NULL,
	`terms_version` text(20),
	`due_date` integer,
	`paid_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoices_client_idx` ON `invoices` (`client_id`);--> statement-breakpoint
CREATE INDEX `invoices_project_idx` ON `invoices` (`project_id`);--> statement-breakpoint
CREATE INDEX `invoices_status_idx` ON `invoices` (`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_tax_number_unique` ON `invoices` (`tax_invoice_number`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `payment_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` integer,
	`m_payment_id` text(100),
	`pf_payment_id` text(100),
	`payment_status` text(20),
	`raw_body` text NOT NULL,
	`source_ip` text(64),
	`outcome` text(20) NOT NULL,
	`reason` text,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `payment_notifications_payment_idx` ON `payment_notifications` (`payment_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`m_payment_id` text(100) NOT NULL,
	`project_id` integer NOT NULL,
	`invoice_id` integer,
	`client_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`status` text(20) DEFAULT 'pending' NOT NULL,
	`mode` text(20) NOT NULL,
	`pf_payment_id` text(100),
	`amount_fee` integer,
	`amount_net` integer,
	`paid_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_m_payment_id_unique` ON `payments` (`m_payment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_pf_payment_id_unique` ON `payments` (`pf_payment_id`);--> statement-breakpoint
CREATE INDEX `payments_project_idx` ON `payments` (`project_id`);--> statement-breakpoint
CREATE TABLE `project_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`file_name` text NOT NULL,
	`original_name` text(255) NOT NULL,
	`file_url` text NOT NULL,
	`file_type` text(100) NOT NULL,
	`file_size` integer NOT NULL,
	`file_category` text(40) DEFAULT 'project_document' NOT NULL,
	`uploaded_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `project_files_project_idx` ON `project_files` (`project_id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` integer NOT NULL,
	`pilot_id` integer,
	`name` text(255) NOT NULL,
	`description` text,
	`project_type` text(50) NOT NULL,
	`location` text(500),
	`latitude` real,
	`longitude` real,
	`deadline` text(10),
	`requirements` text,
	`polygon_geojson` text,
	`area_sqm` real,
	`distance_from_hub` real,
	`nearest_hub` text(200),
	`nearest_hub_id` integer,
	`base_price` integer,
	`adjusted_price` integer,
	`airspace_zone` text(255),
	`airspace_zone_color` text(20),
	`aviation_fee` integer DEFAULT 0 NOT NULL,
	`travel_fee` integer,
	`subtotal` integer,
	`vat_amount` integer,
	`quote_amount` integer,
	`quoted_at` integer,
	`base_cost` integer DEFAULT 117204 NOT NULL,
	`profit_margin` integer,
	`platform_share` integer,
	`operator_share` integer,
	`operator_payout` integer,
	`is_approved` integer DEFAULT false NOT NULL,
	`is_paid` integer DEFAULT false NOT NULL,
	`paid_at` integer,
	`status` text(20) DEFAULT 'draft' NOT NULL,
	`status_message` text,
	`land_owner_form_uploaded` integer DEFAULT false NOT NULL,
	`flight_hours` real DEFAULT 0 NOT NULL,
	`scheduled_date` text(10),
	`estimated_duration` integer,
	`terms_version` text(20),
	`terms_accepted_at` integer,
	`terms_accepted_ip` text(64),
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pilot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`nearest_hub_id`) REFERENCES `hubs`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `projects_client_idx` ON `projects` (`client_id`);--> statement-breakpoint
CREATE INDEX `projects_pilot_idx` ON `projects` (`pilot_id`);--> statement-breakpoint
CREATE INDEX `projects_status_idx` ON `projects` (`status`);--> statement-breakpoint
CREATE INDEX `projects_created_idx` ON `projects` (`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `system_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`setting_key` text(100) NOT NULL,
	`setting_value` text NOT NULL,
	`description` text,
	`updated_by` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `system_settings_setting_key_unique` ON `system_settings` (`setting_key`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text(255) NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text(100) NOT NULL,
	`last_name` text(100) NOT NULL,
	`company_name` text(255),
	`phone` text(20),
	`industry` text(100),
	`country` text(100),
	`role` text(20) DEFAULT 'client' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`service_area` text(200),
	`drone_types` text,
	`pilot_license_number` text(50),
	`pilot_license_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);