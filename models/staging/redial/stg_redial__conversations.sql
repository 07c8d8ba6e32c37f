-- A table, unlike the other staging models: each line's JSON is parsed once here, instead of once
-- per model and test that reads a conversation (a dozen of them, ~340 MB of JSON at scale 10).
{{ config(materialized='table') }}

with

source as (

    select * from {{ source('redial', 'redial_conversations') }}

),

parsed as (

    select
        *,
        cast(raw.without_byte_order_mark(raw_line) as json) as document
    from source

),

renamed as (

    select
        {{ redial_dialogue_key("(document ->> '$.conversationId')") }} as dialogue_key,
        load_id,
        file_path,
        split,
        line_number,
        document ->> '$.conversationId' as conversation_id,
        json_type(document, '$.conversationId') as conversation_id_json_type,
        document ->> '$.initiatorWorkerId' as initiator_worker_id,
        document ->> '$.respondentWorkerId' as respondent_worker_id,
        {{ redial_worker_key("(document ->> '$.initiatorWorkerId')") }} as seeker_key,
        {{ redial_worker_key("(document ->> '$.respondentWorkerId')") }} as recommender_key,
        document -> '$.messages' as messages,
        -- the release writes an empty map as [] (an empty list): read it as an empty object
        {{ redial_empty_list_as_object("document -> '$.movieMentions'") }} as movie_mentions,
        {{ redial_empty_list_as_object("document -> '$.initiatorQuestions'") }} as initiator_questions,
        {{ redial_empty_list_as_object("document -> '$.respondentQuestions'") }} as respondent_questions
    from parsed

)

select * from renamed
