-- The landed lines of one file (load_id, file_path) that are not conversations, in the shape
-- redial_lines has for classify_lines.sql. One parse per line: the types of the fields, then
-- whether they make a conversation (raw_redial.sql's macros); a repeated key, or an id holding the
-- keys' separator, rejects it too.
select line_number, raw_line as line, raw_line as shown
from raw.redial_conversations
where load_id = ? and file_path = ?
    and (
        not raw.redial_types_are_conversation(raw.redial_line_types(raw_line))
        or raw.json_repeated_key(raw_line) is not null
        or raw.redial_id_with_key_separator(raw_line) is not null
    )
