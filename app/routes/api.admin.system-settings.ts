import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { getDb } from '#app/domain/db/db.server.ts'
import { systemSettings } from '#db/schema.ts'
import { asc } from 'drizzle-orm'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json(getDb().select().from(systemSettings).orderBy(asc(systemSettings.settingKey)).all())
}
