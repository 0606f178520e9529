/**
 * Which records the sink lets in: a change topic is input from whoever may write it, so before a record reaches
 * the assembler its topic, its source table, the target that table maps to and, when the sink creates columns,
 * its type texts are checked against what the configuration allows.
 */
package dev.pglane.sink.admit;
