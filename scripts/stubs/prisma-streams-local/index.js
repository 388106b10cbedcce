// The Prisma CLI loads this package only for `prisma dev` (a local Prisma Postgres), which this
// project does not use; the real package needs Node >= 22. See docs/runtime.md.
throw new Error('@prisma/streams-local is not installed in this project: `prisma dev` is not supported (see docs/runtime.md)');
