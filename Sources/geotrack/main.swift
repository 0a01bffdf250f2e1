// Placeholder until the CLI lands.
print("geotrack: not built yet")
