//! What a program without a C library needs of its own: the entry point the kernel jumps
//! to (`_start`), the arguments and environment it finds on the stack, an allocator, a
//! panic handler, and `exec`.

use alloc::vec::Vec;
use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ffi::{CStr, c_char};
use core::sync::atomic::{AtomicUsize, Ordering};

/// The arguments and the environment the kernel gave the program.
pub(crate) struct Start {
    /// The arguments, the program's name first.
    pub(crate) args: Vec<&'static [u8]>,
    /// The environment's entries (`NAME=value`), in order.
    pub(crate) env: Vec<&'static [u8]>,
    /// The environment as the kernel laid it out, for `execve`.
    envp: *const *const u8,
}

impl Start {
    /// The value of the variable `name`, if set (the first entry of that name).
    pub(crate) fn var(&self, name: &[u8]) -> Option<&'static [u8]> {
        self.env.iter().find_map(|entry| {
            let rest = entry.strip_prefix(name)?;
            rest.strip_prefix(b"=")
        })
    }
}

/// `_start`, the entry point the kernel jumps to: it hands the stack pointer to [`entry`].
// Reason: the entry point runs before any Rust code can.
#[allow(unsafe_code)]
mod start_symbol {
    #[cfg(target_arch = "x86_64")]
    core::arch::global_asm!(
        ".globl _start",
        ".type _start,@function",
        "_start:",
        "xor ebp, ebp",
        "mov rdi, rsp",
        "and rsp, -16",
        "call {entry}",
        "ud2",
        entry = sym super::entry,
    );

    #[cfg(target_arch = "aarch64")]
    core::arch::global_asm!(
        ".globl _start",
        ".type _start,%function",
        "_start:",
        "mov x29, #0",
        "mov x30, #0",
        "mov x0, sp",
        "bl {entry}",
        "brk #0",
        entry = sym super::entry,
    );
}

/// Where `_start` goes, with the stack as the kernel left it: `argc`, the arguments, a
/// null, the environment, a null, the auxiliary vector.
// Reason: reading the kernel's stack layout is the one way a program without a C library
// learns its arguments.
#[allow(unsafe_code)]
unsafe extern "C" fn entry(stack: *const usize) -> ! {
    // SAFETY: the kernel's layout at process start: `argc`, then `argc` pointers to
    // NUL-terminated strings and a null, then the environment's pointers and a null; all
    // of it lives as long as the process.
    let start = unsafe {
        let argc = *stack;
        let argv = stack.add(1).cast::<*const c_char>();
        let envp = argv.add(argc + 1);
        // rustix reads the auxiliary vector (the vDSO for the clock) from here.
        rustix::param::init(envp.cast_mut().cast());
        let args = (0..argc)
            .map(|i| CStr::from_ptr(*argv.add(i)).to_bytes())
            .collect();
        let mut env = Vec::new();
        let mut at = envp;
        while !(*at).is_null() {
            env.push(CStr::from_ptr(*at).to_bytes());
            at = at.add(1);
        }
        Start {
            args,
            env,
            envp: envp.cast(),
        }
    };
    exit(crate::run(&start))
}

/// The system call numbers this module makes itself (rustix leaves them to its
/// experimental runtime interface).
#[cfg(target_arch = "x86_64")]
mod nr {
    pub(super) const EXECVE: usize = 59;
    pub(super) const EXIT_GROUP: usize = 231;
    pub(super) const RT_SIGPROCMASK: usize = 14;
}

#[cfg(target_arch = "aarch64")]
mod nr {
    pub(super) const EXECVE: usize = 221;
    pub(super) const EXIT_GROUP: usize = 94;
    pub(super) const RT_SIGPROCMASK: usize = 135;
}

/// System call `nr` with up to four arguments (unused ones 0); its raw result (a
/// negative errno on failure).
// Reason: the system call instruction itself, for the three calls above.
#[allow(unsafe_code)]
unsafe fn syscall(nr: usize, [a, b, c, d]: [usize; 4]) -> isize {
    let ret: isize;
    // SAFETY: the caller passes arguments valid for system call `nr`; the instruction
    // clobbers only the registers named here.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            "syscall",
            inlateout("rax") nr as isize => ret,
            in("rdi") a,
            in("rsi") b,
            in("rdx") c,
            in("r10") d,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    // SAFETY: as above.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!(
            "svc 0",
            in("x8") nr,
            inlateout("x0") a as isize => ret,
            in("x1") b,
            in("x2") c,
            in("x3") d,
            options(nostack),
        );
    }
    ret
}

/// Ends the process with `code`.
#[allow(unsafe_code)]
pub(crate) fn exit(code: i32) -> ! {
    loop {
        // SAFETY: `exit_group` takes a status and does not return.
        unsafe { syscall(nr::EXIT_GROUP, [code as usize, 0, 0, 0]) };
    }
}

/// Becomes `program` with the arguments `argv` (the program's name first) and the
/// environment the process started with; returns only the reason it could not.
// Reason: `execve` takes raw pointers; they are built here from owned C strings.
#[allow(unsafe_code)]
pub(crate) fn exec(start: &Start, program: &CStr, argv: &[&CStr]) -> rustix::io::Errno {
    let mut pointers: Vec<*const u8> = argv.iter().map(|a| a.as_ptr().cast()).collect();
    pointers.push(core::ptr::null());
    // SAFETY: `program` and every argument are NUL-terminated and outlive the call, the
    // argument list ends with a null, and `envp` is the kernel's own, null-terminated.
    let ret = unsafe {
        syscall(
            nr::EXECVE,
            [
                program.as_ptr() as usize,
                pointers.as_ptr() as usize,
                start.envp as usize,
                0,
            ],
        )
    };
    rustix::io::Errno::from_raw_os_error(i32::try_from(-ret).unwrap_or(0))
}

/// Blocks SIGPIPE, so that a write to an output the agent closed fails (and is let go)
/// instead of ending the program: a program without a C library does not get the Rust
/// runtime's ignoring of it. Only before the last writes: `exec` would hand the mask on.
// Reason: signal masks are set through rustix's raw runtime calls.
#[allow(unsafe_code)]
pub(crate) fn block_sigpipe() {
    const SIG_BLOCK: usize = 0;
    const SIGPIPE: u32 = 13;
    let set: u64 = 1 << (SIGPIPE - 1);
    // SAFETY: the kernel reads one 8-byte signal set from `set`, which outlives the call,
    // and writes no old set (null).
    let _ = unsafe {
        syscall(
            nr::RT_SIGPROCMASK,
            [SIG_BLOCK, &raw const set as usize, 0, 8],
        )
    };
}

/// The standard descriptor `fd` (0, 1 or 2).
// Reason: rustix cannot know, without a standard library, that the descriptor is open.
#[allow(unsafe_code)]
fn standard(fd: i32) -> rustix::fd::BorrowedFd<'static> {
    // SAFETY: descriptors 0 to 2 are the process's standard ones for its whole life; were
    // the agent to start it with one closed, calls on it fail (EBADF), and every caller
    // takes a failure.
    unsafe { rustix::fd::BorrowedFd::borrow_raw(fd) }
}

/// Standard input.
pub(crate) fn stdin() -> rustix::fd::BorrowedFd<'static> {
    standard(0)
}

/// Standard output.
pub(crate) fn stdout() -> rustix::fd::BorrowedFd<'static> {
    standard(1)
}

/// Standard error.
pub(crate) fn stderr() -> rustix::fd::BorrowedFd<'static> {
    standard(2)
}

/// The first allocations' room: nothing is freed (the program lives for one call), and
/// what does not fit here is mapped from the kernel.
const ARENA: usize = 256 * 1024;

/// A bump allocator over [`ARENA`] bytes, then anonymous mappings.
struct Bump {
    arena: UnsafeCell<[u8; ARENA]>,
    /// The arena's first free byte, and where its last allocation starts (which may
    /// grow in place).
    next: AtomicUsize,
    last: AtomicUsize,
}

// SAFETY: the program has one thread; the atomics keep the arena's bookkeeping sound
// anyway.
#[allow(unsafe_code)]
unsafe impl Sync for Bump {}

#[global_allocator]
static ALLOCATOR: Bump = Bump {
    arena: UnsafeCell::new([0; ARENA]),
    next: AtomicUsize::new(0),
    last: AtomicUsize::new(usize::MAX),
};

impl Bump {
    fn base(&self) -> usize {
        self.arena.get() as usize
    }

    /// Room from the kernel for `layout`, null when it has none.
    #[allow(unsafe_code)]
    fn map(layout: Layout) -> *mut u8 {
        use rustix::mm::{MapFlags, ProtFlags, mmap_anonymous};
        // SAFETY: a new private anonymous mapping, at an address the kernel picks.
        let mapped = unsafe {
            mmap_anonymous(
                core::ptr::null_mut(),
                layout.size().max(1),
                ProtFlags::READ | ProtFlags::WRITE,
                MapFlags::PRIVATE,
            )
        };
        // Mappings are page-aligned, which covers any alignment asked of this program.
        mapped.map_or(core::ptr::null_mut(), |p| p.cast())
    }
}

// SAFETY: every block handed out is either a fresh, aligned, unshared part of the arena
// or a fresh mapping; none is handed out twice.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let base = self.base();
        let next = self.next.load(Ordering::Relaxed);
        let start = (base + next).next_multiple_of(layout.align()) - base;
        match start.checked_add(layout.size()) {
            Some(end) if end <= ARENA => {
                self.next.store(end, Ordering::Relaxed);
                self.last.store(start, Ordering::Relaxed);
                (base + start) as *mut u8
            }
            _ => Bump::map(layout),
        }
    }

    unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let base = self.base();
        let at = (ptr as usize).wrapping_sub(base);
        // The arena's last block grows in place while the arena has room.
        if at == self.last.load(Ordering::Relaxed)
            && let Some(end) = at.checked_add(new_size)
            && end <= ARENA
        {
            self.next.store(end, Ordering::Relaxed);
            return ptr;
        }
        // SAFETY: as `GlobalAlloc::realloc` requires of its default: `layout` with the
        // new size is valid, and `ptr` was allocated with `layout`.
        unsafe {
            let new = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
            if !new.is_null() {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
            }
            new
        }
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    // An answer the agent reads as a block (exit 2), never a silent pass.
    let _ = rustix::io::write(
        stderr(),
        b"hooks-bridge: internal error; the call is blocked\n",
    );
    exit(2)
}

/// The memory functions the compiler calls (`memcpy`, `memmove`, `memset`, `memcmp`,
/// `bcmp`) and `strlen` (C strings' length), which a C library would provide. Their loops
/// read and write through volatile accesses, so the compiler cannot turn them back into
/// calls of themselves; on x86-64 the copies and fills are the processor's string
/// instructions.
// Reason: these are the C ABI's raw-pointer functions.
#[allow(unsafe_code)]
mod mem {
    use core::ptr::{read_volatile, write_volatile};

    /// Copies `n` bytes forward.
    unsafe fn forward(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: the caller's: `n` bytes readable at `src`, writable at `dst`, and a
        // forward copy is correct for them.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            core::arch::asm!(
                "rep movsb",
                inout("rcx") n => _,
                inout("rdi") dst => _,
                inout("rsi") src => _,
                options(nostack, preserves_flags),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        for i in 0..n {
            // SAFETY: as above.
            unsafe { write_volatile(dst.add(i), read_volatile(src.add(i))) };
        }
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        // SAFETY: `memcpy`'s contract: the regions are valid and do not overlap.
        unsafe { forward(dst, src, n) };
        dst
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        if (dst as usize).wrapping_sub(src as usize) >= n {
            // SAFETY: `dst` is before `src`, or past its end: a forward copy never
            // overwrites a byte before reading it.
            unsafe { forward(dst, src, n) };
        } else {
            for i in (0..n).rev() {
                // SAFETY: `memmove`'s contract: both regions valid for `n` bytes.
                unsafe { write_volatile(dst.add(i), read_volatile(src.add(i))) };
            }
        }
        dst
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memset(dst: *mut u8, byte: i32, n: usize) -> *mut u8 {
        // SAFETY: `memset`'s contract: `n` bytes writable at `dst`.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            core::arch::asm!(
                "rep stosb",
                inout("rcx") n => _,
                inout("rdi") dst => _,
                in("al") byte as u8,
                options(nostack, preserves_flags),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        for i in 0..n {
            // SAFETY: as above.
            unsafe { write_volatile(dst.add(i), byte as u8) };
        }
        dst
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        for i in 0..n {
            // SAFETY: `memcmp`'s contract: both regions readable for `n` bytes.
            let (x, y) = unsafe { (read_volatile(a.add(i)), read_volatile(b.add(i))) };
            if x != y {
                return i32::from(x) - i32::from(y);
            }
        }
        0
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: as `memcmp`.
        unsafe { memcmp(a, b, n) }
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn strlen(s: *const u8) -> usize {
        let mut n = 0;
        // SAFETY: `strlen`'s contract: a NUL-terminated string at `s`.
        while unsafe { read_volatile(s.add(n)) } != 0 {
            n += 1;
        }
        n
    }
}

/// The unwinder's entry points, which the precompiled `core` and `alloc` name in their
/// cleanup paths. This program never unwinds (a panic ends it, `-C panic=abort`), so
/// neither is ever called; were one to be, the call is blocked as for a panic.
// Reason: they must carry the unwinder's symbol names.
#[allow(unsafe_code)]
mod unwind {
    #[unsafe(no_mangle)]
    extern "C" fn _Unwind_Resume() -> ! {
        super::exit(2)
    }

    #[unsafe(no_mangle)]
    extern "C" fn rust_eh_personality() -> ! {
        super::exit(2)
    }
}
