import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from '../accounts/account.entity';

@Entity('api_keys')
@Unique('api_keys_token_hash_key', ['tokenHash'])
@Index('api_keys_account_idx', { synchronize: false })
export class ApiKey {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'api_keys_account_id_fkey' })
  account: Account;

  /** SHA-256 of the token; the token itself is never stored. */
  @Column('bytea', { name: 'token_hash' })
  tokenHash: Buffer;

  /** The first characters of the token, to recognise a key in listings. */
  @Column('text', { name: 'token_prefix' })
  tokenPrefix: string;

  @Column('text', { array: true })
  scopes: string[];

  @Column('text', { name: 'ip_allowlist', array: true, default: () => "'{}'" })
  ipAllowlist: string[];

  @Column({ type: 'int', name: 'daily_cap', nullable: true })
  dailyCap: number | null;

  @Column({ type: 'int', name: 'monthly_cap', nullable: true })
  monthlyCap: number | null;

  @Column({ type: 'timestamptz', name: 'expires_at', precision: 3, nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'timestamptz', name: 'revoked_at', precision: 3, nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
