"""Records exactly as the dataset cards print them: the yardsticks the landing of a release and the
sample written in its format are checked against."""

# Conversation 391 exactly as the dataset card prints it (Data Instances).
CARD_391_TEXT = """
{
   "movieMentions":{
      "203371":"Final Fantasy: The Spirits Within (2001)",
      "84779":"The Triplets of Belleville (2003)",
      "122159":"Mary and Max (2009)",
      "151313":"A Scanner Darkly  (2006)",
      "191602":"Waking Life (2001)",
      "165710":"The Boss Baby (2017)"
   },
   "respondentQuestions":{
      "203371":{
         "suggested":1,
         "seen":0,
         "liked":1
      },
      "84779":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "122159":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "151313":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "191602":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "165710":{
         "suggested":1,
         "seen":0,
         "liked":1
      }
   },
   "messages":[
      {
         "timeOffset":0,
         "text":"Hi there, how are you? I'm looking for movie recommendations",
         "senderWorkerId":0,
         "messageId":1021
      },
      {
         "timeOffset":15,
         "text":"I am doing okay. What kind of movies do you like?",
         "senderWorkerId":1,
         "messageId":1022
      },
      {
         "timeOffset":66,
         "text":"I like animations like @84779 and @191602",
         "senderWorkerId":0,
         "messageId":1023
      },
      {
         "timeOffset":86,
         "text":"I also enjoy @122159",
         "senderWorkerId":0,
         "messageId":1024
      },
      {
         "timeOffset":95,
         "text":"Anything artistic",
         "senderWorkerId":0,
         "messageId":1025
      },
      {
         "timeOffset":135,
         "text":"You might like @165710 that was a good movie.",
         "senderWorkerId":1,
         "messageId":1026
      },
      {
         "timeOffset":151,
         "text":"What's it about?",
         "senderWorkerId":0,
         "messageId":1027
      },
      {
         "timeOffset":207,
         "text":"It has Alec Baldwin it is about a baby that works for a company and gets adopted it is very funny",
         "senderWorkerId":1,
         "messageId":1028
      },
      {
         "timeOffset":238,
         "text":"That seems like a nice comedy",
         "senderWorkerId":0,
         "messageId":1029
      },
      {
         "timeOffset":272,
         "text":"Do you have any animated recommendations that are a bit more dramatic? Like @151313 for example",
         "senderWorkerId":0,
         "messageId":1030
      },
      {
         "timeOffset":327,
         "text":"I like comedies but I prefer films with a little more depth",
         "senderWorkerId":0,
         "messageId":1031
      },
      {
         "timeOffset":467,
         "text":"That is a tough one but I will remember something",
         "senderWorkerId":1,
         "messageId":1032
      },
      {
         "timeOffset":509,
         "text":"@203371 was a good one",
         "senderWorkerId":1,
         "messageId":1033
      },
      {
         "timeOffset":564,
         "text":"Ooh that seems cool! Thanks for the input. I'm ready to submit if you are.",
         "senderWorkerId":0,
         "messageId":1034
      },
      {
         "timeOffset":571,
         "text":"It is animated, sci fi, and has action",
         "senderWorkerId":1,
         "messageId":1035
      },
      {
         "timeOffset":579,
         "text":"Glad I could help",
         "senderWorkerId":1,
         "messageId":1036
      },
      {
         "timeOffset":581,
         "text":"Nice",
         "senderWorkerId":0,
         "messageId":1037
      },
      {
         "timeOffset":591,
         "text":"Take care, cheers!",
         "senderWorkerId":0,
         "messageId":1038
      },
      {
         "timeOffset":608,
         "text":"bye",
         "senderWorkerId":1,
         "messageId":1039
      }
   ],
   "conversationId":"391",
   "respondentWorkerId":1,
   "initiatorWorkerId":0,
   "initiatorQuestions":{
      "203371":{
         "suggested":1,
         "seen":0,
         "liked":1
      },
      "84779":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "122159":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "151313":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "191602":{
         "suggested":0,
         "seen":1,
         "liked":1
      },
      "165710":{
         "suggested":1,
         "seen":0,
         "liked":1
      }
   }
}
"""
