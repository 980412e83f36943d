import type { LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { asc } from 'drizzle-orm'
import { systemSettings } from '#db/schema.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getDb } from '#app/domain/db/db.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(getDb().select().from(systemSettings).orderBy(asc(systemSettings.settingKey)).all())
}
