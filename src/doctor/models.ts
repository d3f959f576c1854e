// Doctor checks of local model folders: every file present, the model loads (transformers.js + onnxruntime, offline),
// and for the labeler the tokenizer has "yes" and "no" tokens (p_yes/p_no are read from them).
import { inspectLlavaFolder, LLAVA_FILES } from '../backends/local/model-folder.js';
import { yesNoTokenIds } from '../feedback/yes-no.js';
import { fail, ok, type Check } from './types.js';

/** A local model a config uses: its role and folder. */
export interface LocalModelUse {
  role: 'generate' | 'label' | 'reward-policy' | 'reward-reference';
  dir: string;
}

const NAMES = { generate: 'policy', label: 'labeler', 'reward-policy': 'policy', 'reward-reference': 'policy' } as const;
const FIELDS = {
  generate: 'generate.backend.model',
  label: 'label.backend.model',
  'reward-policy': 'feedback.dpo_reward.policy.model',
  'reward-reference': 'feedback.dpo_reward.reference.model',
} as const;

/** Checks one local model folder as the config's `role` uses it. */
export async function checkLocalModel(use: LocalModelUse): Promise<Check[]> {
  const field = FIELDS[use.role];
  const name = use.role.startsWith('reward-') ? `dpo reward ${use.role.slice(7)} model` : `${NAMES[use.role]} model`;
  const out: Check[] = [];
  try {
    inspectLlavaFolder(use.dir);
    out.push(ok(`${name} files`, use.dir, `all ${LLAVA_FILES.length} files of a LLaVA folder present, config.json readable`));
  } catch (e) {
    const msg = (e as Error).message;
    const fix = /does not exist/.test(msg)
      ? `set ${field} to a model folder (relative to the config file), e.g. models/shapes-${NAMES[use.role]}`
      : /is missing/.test(msg)
        ? `copy the missing file(s) into ${use.dir} from the model's export (a LLaVA folder needs ${LLAVA_FILES.join(', ')}), or set ${field} to a complete folder`
        : `fix config.json in ${use.dir}, or set ${field} to a complete LLaVA-layout folder`;
    out.push(fail(`${name} files`, use.dir, `${field}: ${msg}`, fix));
    return out;
  }
  // Loaded here only: a config with remote backends only never pays for importing transformers.js.
  const { LlavaModel } = await import('../backends/local/llava.js');
  const t0 = performance.now();
  let model: Awaited<ReturnType<typeof LlavaModel.load>>;
  try {
    model = await LlavaModel.load(use.dir, { threads: 1 });
  } catch (e) {
    out.push(fail(`${name} loads`, use.dir, `${field}: ${(e as Error).message}`,
      `the ONNX or tokenizer files may be cut short or from another export: copy the folder again or re-export it (optimum-cli export onnx, LLaVA layout), or set ${field} to another folder`));
    return out;
  }
  try {
    out.push(ok(`${name} loads`, use.dir, `${model.info.modelId} loads offline (${((performance.now() - t0) / 1000).toFixed(1)} s)`));
    if (use.role === 'label') {
      try {
        const ids = yesNoTokenIds(model.vocabulary());
        const show = (list: number[]) => list.slice(0, 4).map((i) => JSON.stringify(model.tokenText(i))).join(', ') + (list.length > 4 ? ', …' : '');
        out.push(ok('labeler yes/no tokens', use.dir, `"yes": ${ids.yes.length} token${ids.yes.length === 1 ? '' : 's'} (${show(ids.yes)}), "no": ${ids.no.length} (${show(ids.no)})`));
      } catch (e) {
        out.push(fail('labeler yes/no tokens', use.dir, `${field}: ${(e as Error).message}`,
          `use a labeler whose tokenizer has "yes" and "no" tokens (any English chat VLM), set with ${field}`));
      }
    }
  } finally {
    await model.dispose();
  }
  return out;
}
