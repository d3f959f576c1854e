// The served VLM tool, measured: the test server's stand-in (LISTER: the real tiny policy describing each image,
// greedy) as label.tools type vlm; routing calibrated on the dev round under both tie rules and applied to the test
// round. Needs the demo rounds: rlaifv run --db /tmp/tt/dev.sqlite; rlaifv run --db /tmp/tt/test.sqlite --prompts
// data/shapes/test/prompts.jsonl.   npx tsx scripts/study/tools-vlm.ts [DEV_DB TEST_DB]
import { TestServer, DEFAULT_MODELS, LISTER } from '../mimic/openai-server.js';
import { serverBackend } from '../../tests/helpers/paths.js';
import { openDb } from '../../src/store/index.js';
import { calibrateRouting, loadEvalRound, roundKnowledge, toolsFigures } from '../../src/eval/index.js';
import { VlmTool } from '../../src/tools/index.js';
import { VLM_TOOL_PROMPT } from '../../src/config/schema.js';

const [devDb = '/tmp/tt/dev.sqlite', testDb = '/tmp/tt/test.sqlite'] = process.argv.slice(2);
const srv = await TestServer.start({ workers: 2, models: { ...DEFAULT_MODELS, ...LISTER } });
const tool = new VlmTool({ name: 'vlm', backend: serverBackend(srv.url, 'lister', { max_in_flight: 4 }), prompt: VLM_TOOL_PROMPT, maxTokens: 256 });
const load = async (file: string) => {
  const db = openDb(file, { readonly: true });
  const round = loadEvalRound(db, 1);
  const k = await roundKnowledge(db, round, [tool]);
  db.close();
  const countRight = round.prompts.filter((p) => k.get('vlm')!.get(p.imageId!)!.objects.length === p.truth.objects.length).length / round.prompts.length;
  return { round, k, countRight };
};
const dev = await load(devDb);
const test = await load(testDb);
const out: Record<string, unknown> = { images_counted_right: { dev: dev.countRight, test: test.countRight } };
for (const ties of ['tool', 'labeler'] as const) {
  const cal = calibrateRouting(dev.round, [tool], dev.k, 'dev', ties);
  const t = toolsFigures(test.round, [tool], test.k, cal.routing);
  out[`ties_${ties}`] = {
    routing: cal.routing,
    dev: Object.fromEntries(Object.entries(cal.forms).map(([f, c]) => [f, { claims: c!.claims, labeler: c!.labeler, vlm: c!.tools.vlm }])),
    test: Object.fromEntries(Object.entries(t.label.by_form).map(([f, q]) => [f, { n: q!.n, accuracy: q!.accuracy, labeler_alone: q!.labeler_alone?.accuracy, by_source: q!.by_source }])),
    test_rejc: { pairs: t.pairs_rejc, accuracy: t.pair_accuracy_rejc, inverted: t.inverted_rejc },
  };
}
console.log(JSON.stringify(out, null, 1));
await tool.close();
await srv.close();
