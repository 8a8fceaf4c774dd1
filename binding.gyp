{
  "targets": [
    {
      "target_name": "dojo_memory",
      "sources": ["native/memory.c"]
    }
  ]
}
