/*
 * Wireshark display-filter language (the subset MetaRoCE supports).
 *
 * The lexer deliberately has one catch-all literal token (WORD) for field names, numbers,
 * addresses, byte strings and symbolic value names: what a WORD means is decided by the
 * compiler from the type of the field it is compared with, as Wireshark does.
 * Keyword tokens come before WORD so that an equally long match is a keyword; a longer
 * WORD ("infiniband.bth.psn", "notice") still wins by the longest-match rule.
 */
grammar DisplayFilter;

filter
    : expr? EOF
    ;

// Alternatives are listed from highest to lowest precedence: not > and > xor > or.
expr
    : LPAREN expr RPAREN      # parenExpr
    | NOT expr                # notExpr
    | expr AND expr           # andExpr
    | expr XOR expr           # xorExpr
    | expr OR expr            # orExpr
    | test                    # testExpr
    ;

test
    : quantifier? operand relop operand          # compareTest
    | quantifier? operand NOT? IN set            # inTest
    | quantifier? operand CONTAINS operand       # containsTest
    | quantifier? operand MATCHES operand        # matchesTest
    | operand                                    # presenceTest
    ;

quantifier
    : ANY | ALL
    ;

relop
    : EQ | NE | ALL_EQ | ANY_NE | LT | LE | GT | GE
    ;

// "f & mask": bitwise and binds tighter than the comparison operators.
operand
    : value (BITAND value)?
    ;

value
    : WORD LPAREN fieldRef RPAREN   // function of a field: len(eth.src)
    | fieldRef
    | STRING
    | RAWSTRING
    | CHAR
    ;

// A field, protocol or bare literal, optionally sliced: eth.src[0:3], frame[-4:], bth[0], ip.src[1-2,3].
// A range lexes as one WORD ("0:3", "1-2", "-4:"); the compiler reads it, so errors point into it.
fieldRef
    : WORD slice?
    ;

slice
    : LBRACKET WORD (COMMA WORD)* RBRACKET
    ;

set
    : LBRACE setElement (COMMA? setElement)* RBRACE
    ;

setElement
    : value (DOTDOT value)?
    ;

// ---------------------------------------------------------------- lexer

LPAREN   : '(' ;
RPAREN   : ')' ;
LBRACE   : '{' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
RBRACE   : '}' ;
COMMA    : ',' ;
DOTDOT   : '..' ;

ALL_EQ   : '===' | 'all_eq' ;
ANY_NE   : '!==' | '~=' | 'any_ne' ;
EQ       : '==' | 'eq' | 'any_eq' ;
NE       : '!=' | 'ne' | 'all_ne' ;
LE       : '<=' | 'le' ;
GE       : '>=' | 'ge' ;
LT       : '<' | 'lt' ;
GT       : '>' | 'gt' ;

AND      : '&&' | 'and' ;
OR       : '||' | 'or' ;
XOR      : '^^' | 'xor' ;
NOT      : '!' | 'not' ;
IN       : 'in' ;
CONTAINS : 'contains' ;
MATCHES  : 'matches' | '~' ;
BITAND   : '&' | 'bitand' | 'bitwise_and' ;
ANY      : 'any' ;
ALL      : 'all' ;

// Escapes are validated and decoded by the compiler, so a bad escape gets a precise message.
STRING    : '"' ( '\\' . | ~["\\] )* '"' ;
RAWSTRING : [rR] '"' ( '\\' . | ~["\\] )* '"' ;
CHAR      : '\'' ( '\\' . | ~['\\] )* '\'' ;

// Field names, numbers, IPv4/IPv6 (with /prefix), MAC addresses, byte strings, value names.
// Cannot contain "..", so "10..20" lexes as WORD DOTDOT WORD.
WORD : '-'? WORD_START WORD_CHAR* ( '.' WORD_CHAR+ )* ;

fragment WORD_START : [a-zA-Z0-9_:] ;
fragment WORD_CHAR  : [a-zA-Z0-9_:/\-] ;

WS : [ \t\r\n\f]+ -> skip ;

// Anything else becomes a token the parser cannot accept, so the error has a position.
ERROR_CHAR : . ;
