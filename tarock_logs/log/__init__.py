"""Reading and writing logs: the format (pydantic models), the lenient reader, the canonical
writer."""
