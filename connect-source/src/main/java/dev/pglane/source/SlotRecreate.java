package dev.pglane.source;

/** What the source does when its stored offset outlived its replication slot (dropped, invalidated, renamed). */
public enum SlotRecreate {
    /** Fail the task: the changes between the offset and a new slot are gone, and a new slot would skip them. */
    NEVER,
    /** Create the slot again and go on, logging the LSN range whose changes were not captured. */
    ALLOW_GAP
}
