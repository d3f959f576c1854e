// How each server names a loaded LoRA adapter. SGLang lists adapters in GET /v1/models by their bare name (sglang PR
// #12229), but serves one only when a request names it "base:adapter" (serving_base.py _parse_model_parameter); any
// other name is served by the base model without an error (sglang #31404). A bare adapter name would make a run
// sample the untrained base, so it is refused with the name to use.

/** A GET /models card as vLLM and SGLang write it (`parent` is the base model of an adapter's card). */
export interface ModelCard {
  id: string;
  parent?: string | null;
}

/**
 * The name SGLang serves `model` under when `model` is the bare name of a listed adapter ("base:adapter"), else null.
 * @example sglangAdapterName([{ id: 'policy' }, { id: 'r1', parent: 'policy' }], 'r1', 'sglang') // "policy:r1"
 */
export function sglangAdapterName(cards: readonly ModelCard[], model: string, kind: string): string | null {
  if (kind !== 'sglang' || model.includes(':')) return null;
  const card = cards.find((c) => c.id === model);
  return card && typeof card.parent === 'string' && card.parent !== '' ? `${card.parent}:${model}` : null;
}

/** The refusal of a bare SGLang adapter name, naming the setting and the exact name to use. */
export function bareAdapterMessage(field: string, model: string, exact: string): string {
  return (
    `${field} "${model}" is a LoRA adapter that SGLang lists by its bare name but serves only as "${exact}": ` +
    `under "${model}" it answers with the base model, silently. Set ${field} to "${exact}".`
  );
}

/**
 * Whether a GET /models list serves a model name. SGLang lists only its base model and addresses a LoRA adapter as
 * "base:adapter", which it takes on trust when the base is listed.
 */
export function servesModel(ids: readonly string[], model: string, kind: string): boolean {
  if (ids.includes(model)) return true;
  const colon = model.indexOf(':');
  return kind === 'sglang' && colon > 0 && ids.includes(model.slice(0, colon));
}
