mod debian/stat.ini
