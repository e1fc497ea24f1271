import { expect } from 'chai';
import { ImportReport, NOTIFICATION_COLUMNS, type NotificationRow, formatNotification } from '../../lib/formats/notifications.js';

const SUMMARY_NAMES = ['#aborted', '#errors', '#warnings', '#processed-facts', '#changed-facts', '#processed-rules', '#changed-rules', '#processed-axioms', '#changed-axioms'];

describe('notifications', () => {
  it('has the columns of the notification answer', () => {
    expect([...NOTIFICATION_COLUMNS]).to.deep.equal(['Type', 'Line', 'Column', 'Description', 'Value']);
  });

  describe('formatNotification', () => {
    it('formats errors with line and column', () => {
      expect(formatNotification({ type: 'error', line: 12, column: 7, description: 'unexpected token', value: '' })).to.equal('error: line 12: column 7: unexpected token');
    });

    it('formats warnings the same way', () => {
      expect(formatNotification({ type: 'warning', line: 1, column: 1, description: 'odd literal', value: '' })).to.equal('warning: line 1: column 1: odd literal');
    });

    it('leaves out a missing position', () => {
      expect(formatNotification({ type: 'error', description: 'content type mismatch', value: '' })).to.equal('error: content type mismatch');
      expect(formatNotification({ type: 'error', line: 3, description: 'bad line', value: '' })).to.equal('error: line 3: bad line');
    });

    it('formats prefix rows as name = IRI', () => {
      expect(formatNotification({ type: 'prefix', description: 'ex:', value: 'http://example.com/' })).to.equal('prefix: ex: = http://example.com/');
      expect(formatNotification({ type: 'prefix', description: ':', value: 'http://example.com/empty#' })).to.equal('prefix: : = http://example.com/empty#');
    });

    it('formats information rows as description = value', () => {
      expect(formatNotification({ type: 'information', description: '#errors', value: '1' })).to.equal('information: #errors = 1');
      expect(formatNotification({ type: 'information', description: '#aborted', value: 'false' })).to.equal('information: #aborted = false');
    });
  });

  describe('ImportReport', () => {
    it('starts with a zero summary', () => {
      const report = new ImportReport();
      expect(report.notifications).to.deep.equal([]);
      const summary = report.summary();
      expect(summary.map((r) => r.description)).to.deep.equal(SUMMARY_NAMES);
      expect(summary.map((r) => r.value)).to.deep.equal(['false', '0', '0', '0', '0', '0', '0', '0', '0']);
      for (const row of summary) {
        expect(row.type).to.equal('information');
        expect(row.line).to.equal(undefined);
        expect(row.column).to.equal(undefined);
      }
    });

    it('collects errors, warnings and prefixes in order, counting them', () => {
      const report = new ImportReport();
      const streamed: NotificationRow[] = [];
      report.onRow = (row) => streamed.push(row);
      report.prefix('ex:', 'http://example.com/');
      report.error('bad term', 2, 5);
      report.warning('suspicious', 3, 1);
      report.error('no position');
      report.processedFacts = 10;
      report.changedFacts = 7;
      expect(report.errors).to.equal(2);
      expect(report.warnings).to.equal(1);
      expect(report.notifications).to.deep.equal([
        { type: 'prefix', description: 'ex:', value: 'http://example.com/' },
        { type: 'error', line: 2, column: 5, description: 'bad term', value: '' },
        { type: 'warning', line: 3, column: 1, description: 'suspicious', value: '' },
        { type: 'error', line: undefined, column: undefined, description: 'no position', value: '' },
      ]);
      expect(streamed).to.deep.equal(report.notifications);
      const rows = report.rows();
      expect(rows.slice(0, 4)).to.deep.equal(report.notifications);
      expect(rows.slice(4).map((r) => [r.description, r.value])).to.deep.equal([
        ['#aborted', 'false'],
        ['#errors', '2'],
        ['#warnings', '1'],
        ['#processed-facts', '10'],
        ['#changed-facts', '7'],
        ['#processed-rules', '0'],
        ['#changed-rules', '0'],
        ['#processed-axioms', '0'],
        ['#changed-axioms', '0'],
      ]);
    });

    it('renders the plain-text form, one line per row', () => {
      const report = new ImportReport();
      report.prefix('ex:', 'http://example.com/');
      report.error('unexpected "x"', 4, 9);
      report.aborted = true;
      report.processedFacts = 3;
      expect(report.toText()).to.equal(
        [
          'prefix: ex: = http://example.com/',
          'error: line 4: column 9: unexpected "x"',
          'information: #aborted = true',
          'information: #errors = 1',
          'information: #warnings = 0',
          'information: #processed-facts = 3',
          'information: #changed-facts = 0',
          'information: #processed-rules = 0',
          'information: #changed-rules = 0',
          'information: #processed-axioms = 0',
          'information: #changed-axioms = 0',
          '',
        ].join('\n'),
      );
    });
  });
});
