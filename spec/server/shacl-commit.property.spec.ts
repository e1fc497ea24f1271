import { expect } from 'chai';
import { type DataStoreConnection, ShaclViolationError, type ValidationResult } from '../../lib/index.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { nquadsOf, useServer } from '../helpers/server.js';

const EX = 'http://example.org/';
const SH = 'http://www.w3.org/ns/shacl#';
const SHAPES = `${EX}shapes`;

/**
 * Shapes over a small vocabulary that reach past the focus node: targets by class, subjects
 * and objects; inverse, sequence and one-or-more paths; nested shapes, sh:class, qualified
 * counts, sh:not and a closed shape.
 */
const SHAPES_TTL = `@prefix sh: <${SH}> . @prefix ex: <${EX}> . @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
ex:AShape a sh:NodeShape ; sh:targetClass ex:A ;
  sh:property [ sh:path ex:p ; sh:maxCount 2 ; sh:class ex:B ] ;
  sh:property [ sh:path ( ex:p ex:q ) ; sh:maxCount 1 ] .
ex:BShape a sh:NodeShape ; sh:targetClass ex:B ;
  sh:property [ sh:path [ sh:inversePath ex:p ] ; sh:maxCount 2 ] ;
  sh:not [ sh:class ex:C ] .
ex:QShape a sh:NodeShape ; sh:targetSubjectsOf ex:q ;
  sh:property [ sh:path [ sh:oneOrMorePath ex:q ] ; sh:qualifiedValueShape [ sh:class ex:A ] ; sh:qualifiedMaxCount 1 ] .
ex:ObjShape a sh:NodeShape ; sh:targetObjectsOf ex:r ; sh:node ex:Closed .
ex:Closed a sh:NodeShape ; sh:closed true ; sh:ignoredProperties ( rdf:type ) ; sh:property [ sh:path ex:p ] ; sh:property [ sh:path ex:q ] .
ex:NoR sh:path ex:r ; sh:maxCount 0 .
`;

/**
 * Triples of the shapes graph that transactions add or delete, so that the shapes change
 * between commits: a constraint attached and detached, a constraint of a shape already read,
 * a target, a shape deactivated.
 */
const SHAPE_TOGGLES = [
  `<${EX}AShape> <${SH}property> <${EX}NoR> .`,
  `<${EX}NoR> <${SH}maxCount> "0"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
  `<${EX}QShape> <${SH}targetClass> <${EX}C> .`,
  `<${EX}BShape> <${SH}deactivated> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .`,
  `<${EX}ObjShape> <${SH}class> <${EX}B> .`,
];

/** A rule, so that derived facts change with explicit ones: what has an r is a C. */
const RULES = `@prefix ex: <${EX}> . [?x, rdf:type, ex:C] :- [?x, ex:r, ?y] .`;

const NODES = ['n0', 'n1', 'n2', 'n3', 'n4'];
const PREDICATES = ['p', 'q', 'r'];
const CLASSES = ['A', 'B', 'C'];

function randomTriple(rand: (n: number) => number): string {
  const node = (): string => `<${EX}${NODES[rand(NODES.length)]}>`;
  if (rand(3) === 0) return `${node()} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${EX}${CLASSES[rand(CLASSES.length)]}> .`;
  return `${node()} <${EX}${PREDICATES[rand(PREDICATES.length)]}> ${node()} .`;
}

function key(r: ValidationResult): string {
  // the shapes' blank nodes differ between the two stores: a blank source shape counts as one
  const shape = r.sourceShape.termType === 'NamedNode' ? r.sourceShape.value : '_';
  return [r.focusNode.value, r.resultPath ?? '', r.value?.value ?? '', r.sourceConstraintComponent, shape].join(' ');
}

describe('SHACL validation on commit: incremental equals full (property)', function () {
  this.timeout(300_000);
  const env = useServer('shacl-commit-property');

  const cases = [1, 2, 3, 4, 5, 6].map((seed) => ({ seed, shapesChange: false, sameGraph: false }));
  // the shapes change between commits too (a store that kept the shapes it read would go wrong), in their own graph and in the data graph
  for (const seed of [11, 12, 13, 14]) cases.push({ seed, shapesChange: true, sameGraph: false });
  for (const seed of [21, 22, 23]) cases.push({ seed, shapesChange: true, sameGraph: true });
  for (const { seed, shapesChange, sameGraph } of cases) {
    const where = shapesChange ? `, shapes changing too${sameGraph ? ', in the data graph' : ''}` : '';
    it(`seed ${seed}${where}: 40 random transactions commit exactly when a full validation of their result conforms, with the same results`, async () => {
      const rand = seededRandom(seed);
      // `checked` validates on commit (incrementally); `reference` validates fully in the transaction itself
      const shapesGraph = sameGraph ? undefined : SHAPES;
      const checked: DataStoreConnection = await env.newStore(undefined, undefined, { 'shacl-validation-on-commit': 'on', 'shacl-shapes-graph': shapesGraph ?? 'default' });
      const reference: DataStoreConnection = await env.newStore();
      for (const ds of [checked, reference]) {
        await ds.importData('ADD', SHAPES_TTL, shapesGraph === undefined ? {} : { defaultGraph: SHAPES });
        await ds.importData('ADD', RULES);
      }
      const inShapes = (triple: string): string => (shapesGraph === undefined ? triple : `${triple.slice(0, -1)} <${shapesGraph}> .`);
      let refused = 0;
      let accepted = 0;
      let focused = 0;
      const store = env.server.dataStore(checked.dataStoreName);
      for (let t = 0; t < 40; t++) {
        const adds: string[] = [];
        const deletes: string[] = [];
        const n = 1 + rand(3);
        for (let i = 0; i < n; i++) (rand(3) === 0 ? deletes : adds).push(randomTriple(rand));
        if (shapesChange && rand(3) === 0) (rand(2) === 0 ? deletes : adds).push(inShapes(SHAPE_TOGGLES[rand(SHAPE_TOGGLES.length)]!));
        const apply = async (ds: DataStoreConnection): Promise<void> => {
          if (deletes.length > 0) await ds.importData('DELETE', deletes.join('\n'));
          if (adds.length > 0) await ds.importData('ADD', adds.join('\n'));
        };
        await reference.beginTransaction('read-write');
        await apply(reference);
        const full = await reference.validate(shapesGraph === undefined ? {} : { shapesGraph });
        if (full.conforms) await reference.commitTransaction();
        else await reference.rollbackTransaction();

        await checked.beginTransaction('read-write');
        await apply(checked);
        let error: ShaclViolationError | undefined;
        try {
          await checked.commitTransaction();
        } catch (e) {
          if (!(e instanceof ShaclViolationError)) throw e;
          error = e;
        }
        const what = `transaction ${t}: -[${deletes.join(' ')}] +[${adds.join(' ')}]`;
        expect(error === undefined, what).to.equal(full.conforms);
        if (error) {
          refused++;
          // the state before conformed, so the results of the affected focus nodes are all the results
          expect(error.report!.results.map(key).sort(), what).to.deep.equal(full.results.map(key).sort());
        } else {
          accepted++;
          if (store.lastCommitValidation?.kind === 'focused') focused++;
        }
        expect(await nquadsOf(checked), what).to.deep.equal(await nquadsOf(reference));
      }
      expect(refused, 'some transactions are refused').to.be.greaterThan(0);
      expect(accepted, 'some transactions commit').to.be.greaterThan(0);
      expect(focused, 'some commits validate only the affected focus nodes').to.be.greaterThan(0);
    });
  }
});
