/**
 * A viewing copy that failed on a project the client already has: the operator is e-mailed
 * GDAL's reason (the client reads only "our team has been told"). Before completion the admin
 * sees the failure in the Complete dialog, which refuses to complete without a choice.
 */
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import { projectFiles, projects } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

export async function reportViewFailure(fileId: number, reason: string, db: DbOrTx = getDb()) {
  const found = db
    .select({ name: projectFiles.originalName, project: projects })
    .from(projectFiles)
    .innerJoin(projects, eq(projects.id, projectFiles.projectId))
    .where(eq(projectFiles.id, fileId))
    .get()
  if (!found || found.project.status !== 'completed') return false
  const { name, project } = found
  return sendEmailSafely({
    to: getEnv().OPERATOR_EMAIL,
    subject: `Viewing copy failed: ${name} (project #${project.id})`,
    ...renderEmail({
      heading: 'A delivered file has no viewing copy',
      paragraphs: [
        `The viewing copy of "${name}" could not be made. The client can still download the file; on the map and the share links it is missing, and the client is told our team knows.`,
        `GDAL said: ${reason}`,
      ],
      details: [
        ['Project', `${project.name} (#${project.id})`],
        ['File', `${name} (#${fileId})`],
      ],
      action: { label: 'Open the project', url: `${appUrl()}/admin/projects/${project.id}` },
    }),
  })
}
