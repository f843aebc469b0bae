-- A project's perimeter (the contract's ProjectPerimeter), as a catalogue file
-- gives it (GeoJSON Polygon or MultiPolygon, checked at import): its rings of
-- [lat, lon] pairs as JSON, apart from the project's row so that reading
-- projects never carries it. A project without a perimeter has no row.
CREATE TABLE project_perimeters (
    project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    rings TEXT NOT NULL,
    points INTEGER NOT NULL CHECK (points > 0 AND points <= 10000)
);
