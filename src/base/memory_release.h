// Handing freed heap memory back to the system while a long run goes on.
#pragma once

namespace fiohist {

/// Returns the heap's free pages to the system (glibc's malloc_trim; a no-op elsewhere).
/// glibc keeps what a thread's arena freed for that arena, so threads that each build and
/// drop megabytes at a time (bulk request bodies, their responses) hold their peak for the
/// whole run. Costs a walk of the free lists: call it per batch, not per item.
void ReleaseFreeMemory();

/// Fixes the size from which glibc maps an allocation on its own (256 KiB) instead of
/// letting it rise: glibc raises that threshold to the size of every mapped block freed
/// (up to 32 MiB), so after the first bulk body (5 MiB) was freed the next ones came from
/// the arenas and their pages stayed there. Measured on a push of 4096 logs to a node,
/// both functions together: peak 243-258 MiB without, 204-212 MiB with. Call once, at
/// start. False where it could not be set (another allocator than glibc's counts as set).
bool SetUpAllocator();

}  // namespace fiohist
