/**
 * Share links (ADR 233): the project's client (once completed) or an admin makes a link
 * to all or chosen deliverables, view-only or with downloads, that expires (default 30
 * days, at most a year) and can be revoked. Opening and downloading through it are
 * counted on the link and written to the audit log in the same transaction.
 */
import { projectFilesAvailableUntil } from '#app/domain/files/availability.server.ts'
import { releasedDeliverablesWhere } from '#app/domain/files/file-queries.server.ts'
import { canSeeProject, requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { appUrl } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import {
  projectFiles,
  projects,
  shareLinks,
  type Project,
  type ProjectFile,
  type ShareLink,
  type User,
} from '#db/schema.ts'
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'

import { gisLinksOf, isTiledRaster } from './gis-links.ts'
import {
  SHARE_DEFAULT_DAYS,
  SHARE_MESSAGES,
  type ShareLinkRequest,
  type ShareLinkState,
  type ShareLinkView,
} from './share-rules.ts'
import { hashShareToken, isWellFormedToken, newShareToken } from './share-token.server.ts'

type Actor = Pick<User, 'id' | 'role'>

const DAY_MS = 24 * 60 * 60 * 1000

/** The public address of a link (the token appears only here, once). */
function shareUrl(token: string) {
  return `${appUrl()}/s/${token}`
}

/**
 * The project's deliverables as delivered that still have their bytes, oldest first (the order
 * they were delivered), without an access check: the caller decided it.
 */
function currentDeliverablesWithoutAccessCheck(projectId: number, db: DbOrTx = getDb()): ProjectFile[] {
  return db
    .select()
    .from(projectFiles)
    .where(releasedDeliverablesWhere(projectId, isNull(projectFiles.removedAt)))
    .orderBy(asc(projectFiles.createdAt), asc(projectFiles.id))
    .all()
}

/** Whether the project's files are past their availability: nothing left to show. */
function filesExpired(project: Pick<Project, 'id' | 'siteId' | 'completedAt' | 'filesKeptUntil'>, now: Date) {
  const until = projectFilesAvailableUntil(project)
  return until !== null && until.getTime() < now.getTime()
}

/**
 * The project whose links this user manages: its client or an admin (404 for a project the
 * user can't see, 403 for the assigned pilot).
 */
export function requireShareManager(user: Actor, projectId: number, db: DbOrTx): Project {
  const project = requireVisibleProject(user, projectId, db)
  if (user.role !== 'admin' && !(user.role === 'client' && project.clientId === user.id)) {
    throw new DomainError(403, SHARE_MESSAGES.notManager)
  }
  return project
}

function stateOf(link: Pick<ShareLink, 'revokedAt' | 'expiresAt'>, now: Date): ShareLinkState {
  if (link.revokedAt) return 'revoked'
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired'
  return 'active'
}

function toView(link: ShareLink, names: Map<number, string>, now: Date): ShareLinkView {
  return {
    id: link.id,
    projectId: link.projectId,
    fileIds: link.fileIds,
    fileNames: link.fileIds ? link.fileIds.map((id) => names.get(id) ?? `File #${id}`) : [],
    allowDownload: link.allowDownload,
    includeNotes: link.includeNotes,
    expiresAt: link.expiresAt.toISOString(),
    revokedAt: link.revokedAt?.toISOString() ?? null,
    revokedReason: link.revokedReason ?? null,
    state: stateOf(link, now),
    openCount: link.openCount,
    downloadCount: link.downloadCount,
    lastOpenedAt: link.lastOpenedAt?.toISOString() ?? null,
    createdAt: link.createdAt.toISOString(),
  }
}

function deliverableNames(projectId: number, db: DbOrTx) {
  const rows = db
    .select({ id: projectFiles.id, name: projectFiles.originalName })
    .from(projectFiles)
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.fileCategory, 'processed_deliverable')))
    .all()
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** Makes a link; the answer carries the token's URL, which is never shown again. */
export function createShareLink(
  user: Actor,
  projectId: number,
  input: ShareLinkRequest,
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
) {
  const project = requireShareManager(user, projectId, db)
  if (user.role === 'client' && (project.status !== 'completed' || !project.completedAt)) {
    throw new DomainError(409, SHARE_MESSAGES.notCompleted)
  }
  if (filesExpired(project, now)) throw new DomainError(409, SHARE_MESSAGES.filesGone)
  const deliverables = currentDeliverablesWithoutAccessCheck(project.id, db)
  if (!deliverables.length) throw new DomainError(409, SHARE_MESSAGES.noDeliverables)
  let fileIds: number[] | null = null
  if (input.fileIds) {
    const known = new Set(deliverables.map((f) => f.id))
    fileIds = [...new Set(input.fileIds)]
    if (fileIds.some((id) => !known.has(id))) {
      throw new DomainError(400, SHARE_MESSAGES.unknownFile, {
        fieldErrors: { fileIds: [SHARE_MESSAGES.unknownFile] },
      })
    }
  }
  const { token, tokenHash } = newShareToken()
  const expiresAt = new Date(now.getTime() + (input.expiresInDays ?? SHARE_DEFAULT_DAYS) * DAY_MS)
  const link = db.transaction((tx) => {
    const row = tx
      .insert(shareLinks)
      .values({
        projectId: project.id,
        createdBy: user.id,
        tokenHash,
        fileIds,
        allowDownload: input.allowDownload,
        includeNotes: input.includeNotes ?? false,
        expiresAt,
        createdAt: now,
      })
      .returning()
      .get()
    recordAudit(
      {
        actorId: user.id,
        action: 'share-link.create',
        entityType: 'share-link',
        entityId: row.id,
        after: {
          projectId: project.id,
          fileIds,
          allowDownload: row.allowDownload,
          includeNotes: row.includeNotes,
          expiresAt,
        },
      },
      tx,
    )
    return row
  })
  const url = shareUrl(token)
  const shared = fileIds ? deliverables.filter((f) => fileIds.includes(f.id)) : deliverables
  return {
    id: link.id,
    url,
    // A view-only link's maps are tiled from their reduced copies (share-tiles.server.ts).
    gis: gisLinksOf(
      url,
      shared.filter(isTiledRaster).map((f) => ({ id: f.id, name: f.originalName })),
    ),
    expiresAt: link.expiresAt.toISOString(),
    allowDownload: link.allowDownload,
    includeNotes: link.includeNotes,
    link: toView(link, deliverableNames(project.id, db), now),
  }
}

/** The project's links, newest first, with their counts (client and admins). */
export function listShareLinks(
  user: Actor,
  projectId: number,
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
): ShareLinkView[] {
  const project = requireShareManager(user, projectId, db)
  return shareStateOfProjects([project.id], { db, now }).get(project.id)!.links
}

/**
 * For projects whose links the caller already may manage: each one's links (newest first) and
 * its deliverables that still have their bytes (oldest first); two queries for any number of projects.
 */
export function shareStateOfProjects(
  projectIds: number[],
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
) {
  const ids = projectIds.length ? projectIds : [0]
  const files = db
    .select()
    .from(projectFiles)
    .where(releasedDeliverablesWhere(ids))
    .orderBy(asc(projectFiles.createdAt), asc(projectFiles.id))
    .all()
  const links = db
    .select()
    .from(shareLinks)
    .where(inArray(shareLinks.projectId, ids))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
    .all()
  // A link names every file it was made for, also one retention has removed since.
  const names = new Map(files.map((f) => [f.id, f.originalName]))
  return new Map(
    projectIds.map((id) => [
      id,
      {
        links: links.filter((l) => l.projectId === id).map((link) => toView(link, names, now)),
        deliverables: files.filter((f) => f.projectId === id && f.removedAt === null),
      },
    ]),
  )
}

/** Revokes a link for good (again: no change). 404 for a link the user doesn't manage. */
export function revokeShareLink(
  user: Actor,
  linkId: number,
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
) {
  const found =
    Number.isInteger(linkId) && linkId > 0
      ? db
          .select({ link: shareLinks, project: projects })
          .from(shareLinks)
          .innerJoin(projects, eq(projects.id, shareLinks.projectId))
          .where(eq(shareLinks.id, linkId))
          .get()
      : undefined
  const manages =
    found && (user.role === 'admin' || (user.role === 'client' && canSeeProject(user, found.project)))
  if (!found || !manages) throw new DomainError(404, SHARE_MESSAGES.linkNotFound)
  if (found.link.revokedAt) return found.link
  return db.transaction((tx) => {
    const row = tx
      .update(shareLinks)
      .set({ revokedAt: now })
      .where(eq(shareLinks.id, linkId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId: user.id,
        action: 'share-link.revoke',
        entityType: 'share-link',
        entityId: linkId,
        before: { revokedAt: null },
        after: { revokedAt: now },
      },
      tx,
    )
    return row
  })
}

/**
 * Stops every open link of a project moved back from completed (in the caller's transaction,
 * audited): what it shared may be replaced, and the client shares again once it is delivered.
 */
export function stopShareLinksOf(projectId: number, actorId: number, tx: DbOrTx, now = new Date()) {
  const stopped = tx
    .update(shareLinks)
    .set({ revokedAt: now, revokedReason: 'project-reopened' })
    .where(
      and(eq(shareLinks.projectId, projectId), isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now)),
    )
    .returning({ id: shareLinks.id })
    .all()
  for (const { id } of stopped)
    recordAudit(
      {
        actorId,
        action: 'share-link.revoke',
        entityType: 'share-link',
        entityId: id,
        before: { revokedAt: null },
        after: { revokedAt: now, reason: 'project-reopened' },
      },
      tx,
    )
  return stopped.length
}

export type ResolvedShare =
  | { state: 'unknown' }
  | {
      state: 'gone'
      reason: 'revoked' | 'project-reopened' | 'expired' | 'files-removed'
      link: ShareLink
      project: Project
    }
  | { state: 'open'; link: ShareLink; project: Project; files: ProjectFile[] }

/**
 * What a token opens: unknown (never made, or not a token at all), gone (revoked, expired,
 * or the files are no longer kept), or the link with the deliverables it shows.
 */
export function resolveShareToken(
  token: unknown,
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
): ResolvedShare {
  if (!isWellFormedToken(token)) return { state: 'unknown' }
  const found = db
    .select({ link: shareLinks, project: projects })
    .from(shareLinks)
    .innerJoin(projects, eq(projects.id, shareLinks.projectId))
    .where(eq(shareLinks.tokenHash, hashShareToken(token)))
    .get()
  if (!found) return { state: 'unknown' }
  const { link, project } = found
  const state = stateOf(link, now)
  if (state !== 'active') {
    const reason =
      state === 'revoked' && link.revokedReason === 'project-reopened' ? link.revokedReason : state
    return { state: 'gone', reason, link, project }
  }
  const chosen = link.fileIds ? new Set(link.fileIds) : null
  const files = currentDeliverablesWithoutAccessCheck(project.id, db).filter(
    (f) => !chosen || chosen.has(f.id),
  )
  if (filesExpired(project, now) || !files.length) {
    return { state: 'gone', reason: 'files-removed', link, project }
  }
  return { state: 'open', link, project, files }
}

/** Counts one opening of the viewer page (and audits it). */
export function recordShareOpen(link: ShareLink, { db = getDb(), now = new Date() } = {}) {
  db.transaction((tx) => {
    tx.update(shareLinks)
      .set({ openCount: sql`${shareLinks.openCount} + 1`, lastOpenedAt: now })
      .where(eq(shareLinks.id, link.id))
      .run()
    recordAudit({ actorId: null, action: 'share-link.open', entityType: 'share-link', entityId: link.id }, tx)
  })
}

/** Counts one download through the link: a file, or the whole ZIP (`fileId` null). */
export function recordShareDownload(
  link: ShareLink,
  fileId: number | null,
  { db = getDb() }: { db?: DbOrTx } = {},
) {
  db.transaction((tx) => {
    tx.update(shareLinks)
      .set({ downloadCount: sql`${shareLinks.downloadCount} + 1` })
      .where(eq(shareLinks.id, link.id))
      .run()
    recordAudit(
      {
        actorId: null,
        action: fileId === null ? 'share-link.download-all' : 'share-link.download',
        entityType: 'share-link',
        entityId: link.id,
        after: fileId === null ? { files: 'all' } : { fileId },
      },
      tx,
    )
  })
}
