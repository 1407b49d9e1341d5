# catalogs: (no catalogs shipped yet)
