DROP INDEX orders_by_offset_link;
DROP TABLE offset_link_visits;
DROP TABLE offset_link_bundles;
DROP TABLE offset_links;
