"""Agent Skills: folders read once into memory, offered to the model in three levels."""
