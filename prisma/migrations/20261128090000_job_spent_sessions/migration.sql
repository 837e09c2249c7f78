-- Job.spent gains the sessions the cells' clients created ({ops, seconds, sessions}); rows written
-- before it lack the key and read as 0 sessions (BudgetSpentSchema). No data changes: the shape is
-- recorded on the column.
COMMENT ON COLUMN "Job"."spent" IS 'Cloud Spanner: what the cells spent of the job-wide budget, {ops, seconds, sessions}';
