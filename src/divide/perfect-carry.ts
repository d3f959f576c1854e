/**
 * The perfect's "has"/"have" carried to a later verb phrase of the same subject: "The group has released five albums,
 * performed four world tours, and won several awards." -> "The group has won several awards.", as the sentence says
 * it (the comma items already keep "has"). FActScore's annotators wrote "The group has won several awards.",
 * "Santana has collaborated with John McLaughlin.". Only a lower-case word the lexicon reads as a participle ("wrote"
 * stays a simple past), with no year in its phrase ("has lived in Paris and moved to London in 2000" is a simple past);
 * not "had" (a past perfect may end with the first phrase), not after "been", not before a name ("Possessed").
 */
import type { Token } from './text.js';

const YEAR = /^(?:1[5-9]|20)\d\d$/;

/** "has " or "have " to put before the phrase `seg`, or ''. `group`: the main verb group, aux first. */
export function perfectCarry(group: readonly Token[], seg: readonly Token[], isParticiple: (w: string) => boolean): string {
  const aux = group[0]?.word ?? '';
  if (aux !== 'has' && aux !== 'have') return '';
  if (group.length < 2 || !isParticiple(group[group.length - 1]?.word ?? '') || group.some((t) => t.word === 'been')) return '';
  if (!/^[a-z]/.test(seg[0]?.raw ?? '') || !isParticiple(seg[0]?.word ?? '') || seg.some((t) => YEAR.test(t.word))) return '';
  return `${group[0]!.raw} `;
}
