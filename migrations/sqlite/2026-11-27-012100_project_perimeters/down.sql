DROP TABLE project_perimeters;
