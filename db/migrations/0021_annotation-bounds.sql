ALTER TABLE `annotations` ADD `min_lng` real;--> statement-breakpoint
ALTER TABLE `annotations` ADD `min_lat` real;--> statement-breakpoint
ALTER TABLE `annotations` ADD `max_lng` real;--> statement-breakpoint
ALTER TABLE `annotations` ADD `max_lat` real;--> statement-breakpoint
ALTER TABLE `annotations` ADD `vertex_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `annotations` SET
	`min_lng` = json_extract(`geometry`, '$.coordinates[0]'),
	`max_lng` = json_extract(`geometry`, '$.coordinates[0]'),
	`min_lat` = json_extract(`geometry`, '$.coordinates[1]'),
	`max_lat` = json_extract(`geometry`, '$.coordinates[1]'),
	`vertex_count` = 1
WHERE `kind` = 'point';--> statement-breakpoint
UPDATE `annotations` SET
	`min_lng` = (SELECT min(json_extract(p.value, '$[0]')) FROM json_each(`annotations`.`geometry`, CASE `annotations`.`kind` WHEN 'polygon' THEN '$.coordinates[0]' ELSE '$.coordinates' END) AS p),
	`max_lng` = (SELECT max(json_extract(p.value, '$[0]')) FROM json_each(`annotations`.`geometry`, CASE `annotations`.`kind` WHEN 'polygon' THEN '$.coordinates[0]' ELSE '$.coordinates' END) AS p),
	`min_lat` = (SELECT min(json_extract(p.value, '$[1]')) FROM json_each(`annotations`.`geometry`, CASE `annotations`.`kind` WHEN 'polygon' THEN '$.coordinates[0]' ELSE '$.coordinates' END) AS p),
	`max_lat` = (SELECT max(json_extract(p.value, '$[1]')) FROM json_each(`annotations`.`geometry`, CASE `annotations`.`kind` WHEN 'polygon' THEN '$.coordinates[0]' ELSE '$.coordinates' END) AS p),
	`vertex_count` = json_array_length(`geometry`, CASE `kind` WHEN 'polygon' THEN '$.coordinates[0]' ELSE '$.coordinates' END)
WHERE `kind` IN ('line', 'polygon');
