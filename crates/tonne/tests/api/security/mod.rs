mod backup;
