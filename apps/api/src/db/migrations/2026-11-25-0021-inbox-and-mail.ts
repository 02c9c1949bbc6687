import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.

export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}
