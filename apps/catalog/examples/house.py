def house_examples() -> None:
    return None
