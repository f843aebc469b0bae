mod links;
