/**
 * The operator's SACAA Part 101 documents (ADR 113): ROC and Ops Spec, third-party
 * liability insurance (at least R500 000), each aircraft's registration and RLA, with
 * expiry dates; plus the pilots' RPL and medical dates. The admin manages them, sees what
 * expires within 30 days, and a daily mail lists it.
 */
import fs from 'node:fs'
import { fullName } from '#app/domain/users/person-name.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getCompanyInfo, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate, todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { formatPhone, phoneHref, plural } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { DailyTask } from '#app/lib/jobs/daily.server.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import { operatorDocuments, systemSettings, users, type OperatorDocument } from '#db/schema.ts'
import { asc, eq, lt } from 'drizzle-orm'

import { operatorCopyPath } from './document-copies.server.ts'
import { daysUntil, EXPIRY_WARNING_DAYS, expiryState, type ExpiryState } from './expiry.ts'
import { OPERATOR_DOCUMENT_LABELS, type OperatorDocumentInput } from './schemas.ts'

export function listOperatorDocuments(db: DbOrTx = getDb()): OperatorDocument[] {
  return db
    .select()
    .from(operatorDocuments)
    .orderBy(asc(operatorDocuments.kind), asc(operatorDocuments.expiresAt))
    .all()
}

/** Whether the site may say "SACAA-certified operator": a ROC on record and not expired. */
export function loadOperatorStatus(today = todayInSouthAfrica(), db: DbOrTx = getDb()) {
  const rocs = db.select().from(operatorDocuments).where(eq(operatorDocuments.kind, 'roc')).all()
  return { rocValid: rocs.some((d) => daysUntil(d.expiresAt, today) >= 0) }
}

/** The business details pages show, with whether the operator's ROC is currently valid. */
/**
 * The company details every page shows (footer, contact), with the phone number already
 * formatted so public pages need no formatting code in the browser.
 */
export function getSiteCompany() {
  const company = getCompanyInfo()
  return {
    ...company,
    phoneDisplay: formatPhone(company.phone),
    phoneHref: phoneHref(company.phone),
    operatorCertified: loadOperatorStatus().rocValid,
  }
}

export function createOperatorDocument(actorId: number, input: OperatorDocumentInput) {
  return getDb().transaction((tx) => {
    const doc = tx.insert(operatorDocuments).values(input).returning().get()
    recordAudit(
      {
        actorId,
        action: 'operator-document.create',
        entityType: 'operator_document',
        entityId: doc.id,
        after: doc,
      },
      tx,
    )
    return doc
  })
}

export function updateOperatorDocument(actorId: number, id: number, input: OperatorDocumentInput) {
  return getDb().transaction((tx) => {
    const before = tx.select().from(operatorDocuments).where(eq(operatorDocuments.id, id)).get()
    if (!before) throw new DomainError(404, 'Document not found')
    const after = tx
      .update(operatorDocuments)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(operatorDocuments.id, id))
      .returning()
      .get()!
    recordAudit(
      {
        actorId,
        action: 'operator-document.update',
        entityType: 'operator_document',
        entityId: id,
        before,
        after,
      },
      tx,
    )
    return after
  })
}

export function deleteOperatorDocument(actorId: number, id: number) {
  const copyPath = getDb().transaction((tx) => {
    const before = tx.select().from(operatorDocuments).where(eq(operatorDocuments.id, id)).get()
    if (!before) throw new DomainError(404, 'Document not found')
    // Its uploaded copy goes with it (the row by cascade, the bytes after commit).
    const copyPath = operatorCopyPath(id, tx)
    tx.delete(operatorDocuments).where(eq(operatorDocuments.id, id)).run()
    recordAudit(
      { actorId, action: 'operator-document.delete', entityType: 'operator_document', entityId: id, before },
      tx,
    )
    return copyPath
  })
  if (copyPath) fs.rmSync(copyPath, { force: true })
}

function activePilots(db: DbOrTx) {
  return db
    .select()
    .from(users)
    .where(eq(users.role, 'pilot'))
    .all()
    .filter((p) => p.isActive && !p.anonymisedAt)
}

/** Active pilots' licence and medical dates, for the Compliance tab (copies beside them). */
export function listPilotDocuments(today = todayInSouthAfrica(), db: DbOrTx = getDb()) {
  return activePilots(db)
    .map((p) => ({
      id: p.id,
      name: fullName(p),
      rplNumber: p.rplNumber,
      rplExpiresAt: p.rplExpiresAt,
      rplState: expiryState(p.rplExpiresAt, today),
      medicalExpiresAt: p.medicalExpiresAt,
      medicalState: expiryState(p.medicalExpiresAt, today),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

export interface ExpiryItem {
  /** e.g. 'ROC ROC-ZA-1234' or 'Pilot Thabo Nkosi: medical' */
  label: string
  expiresAt: string | null
  state: ExpiryState
  daysLeft: number | null
  href: string
}

/** Everything expired, missing (pilots) or expiring within 30 days, soonest first. */
export function listExpiringItems(today = todayInSouthAfrica(), db: DbOrTx = getDb()): ExpiryItem[] {
  const items: ExpiryItem[] = []
  for (const doc of listOperatorDocuments(db)) {
    const state = expiryState(doc.expiresAt, today)
    if (state === 'valid') continue
    const what = `${OPERATOR_DOCUMENT_LABELS[doc.kind]} ${doc.reference}${doc.subject ? ` (${doc.subject})` : ''}`
    items.push({
      label: what,
      expiresAt: doc.expiresAt,
      state,
      daysLeft: daysUntil(doc.expiresAt, today),
      href: `/admin/operator-documents/${doc.id}`,
    })
  }
  for (const pilot of activePilots(db)) {
    for (const [what, date] of [
      ['RPL', pilot.rplExpiresAt],
      ['medical', pilot.medicalExpiresAt],
    ] as const) {
      const state = expiryState(date, today)
      if (state === 'valid') continue
      items.push({
        label: `Pilot ${fullName(pilot)}: ${what}`,
        expiresAt: date,
        state,
        daysLeft: date ? daysUntil(date, today) : null,
        href: `/admin/pilots/${pilot.id}`,
      })
    }
  }
  return items.sort((a, b) => (a.daysLeft ?? -Infinity) - (b.daysLeft ?? -Infinity))
}

const STATE_TEXT: Record<ExpiryState, string> = {
  missing: 'not on record',
  expired: 'EXPIRED',
  expiring: 'expires soon',
  valid: 'valid',
}

function describeExpiry(item: ExpiryItem) {
  if (item.state === 'missing') return 'Not on record'
  if (item.state === 'expired')
    return `Expired ${formatDate(item.expiresAt)} (${plural(-item.daysLeft!, 'day')} ago)`
  return `Expires ${formatDate(item.expiresAt)} (in ${plural(item.daysLeft!, 'day')})`
}

/** The South African day the expiry mail last went out (YYYY-MM-DD). */
const DIGEST_SENT_KEY = 'operator.expiry_digest_sent_on'

/**
 * Claims `today` for the expiry mail in one statement, so a server started three times a day
 * (or two processes at once) sends it once; false when the day was already claimed.
 */
function claimDigestDay(today: string, db: DbOrTx) {
  const claimed = db
    .insert(systemSettings)
    .values({ settingKey: DIGEST_SENT_KEY, settingValue: today, description: 'SACAA expiry mail last sent' })
    .onConflictDoUpdate({
      target: systemSettings.settingKey,
      set: { settingValue: today, updatedAt: new Date() },
      setWhere: lt(systemSettings.settingValue, today),
    })
    .run()
  return claimed.changes === 1
}

/**
 * The daily mail to operations: at most once per South African day, however often the
 * server starts; nothing is sent when nothing needs attention. A mail that fails gives the
 * day back, so the next run tries again.
 */
export async function sendExpiryDigest(today = todayInSouthAfrica(), db: DbOrTx = getDb()) {
  const items = listExpiringItems(today, db)
  if (!items.length) return { sent: false, count: 0 }
  const before = db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, DIGEST_SENT_KEY))
    .get()
  if (!claimDigestDay(today, db)) return { sent: false, count: items.length, alreadySent: true }
  const sent = await sendEmailSafely({
    to: getEnv().OPERATOR_EMAIL,
    subject: `SACAA documents: ${items.length} expired or expiring within ${EXPIRY_WARNING_DAYS} days`,
    ...renderEmail({
      heading: 'Documents that need attention',
      paragraphs: [
        `These operator and pilot documents have expired, are missing, or expire within ${EXPIRY_WARNING_DAYS} days. Pilots with an expired licence or medical cannot be assigned to flights, and "SACAA-certified operator" is only shown while the ROC is valid.`,
      ],
      details: items.map(
        (i) => [i.label, `${describeExpiry(i)} — ${STATE_TEXT[i.state]}`] as [string, string],
      ),
    }),
  })
  if (!sent)
    db.update(systemSettings)
      .set({ settingValue: before?.value ?? '' })
      .where(eq(systemSettings.settingKey, DIGEST_SENT_KEY))
      .run()
  return { sent, count: items.length, alreadySent: false }
}

/** The daily run of the SACAA document expiry mail (ADR 113). */
export const expiryMailDailyTask: DailyTask = {
  name: 'expiry mail',
  async run() {
    const digest = await sendExpiryDigest()
    if (digest.count && !digest.alreadySent)
      console.log(`[daily] expiry mail: ${digest.count} item(s), sent=${digest.sent}`)
  },
}
